import {
  Archive,
  FileCode2,
  FolderPlus,
  Hourglass,
  KeyRound,
  MessageSquareText,
  Package,
  RotateCcw,
  SquareTerminal,
  Terminal,
} from 'lucide-react';
import type { LucideIcon } from 'lucide-react';
import type { StepType } from '@outpost/contract/step-catalog';
import { cn } from '../../../lib/cn';

const icons: Record<StepType, LucideIcon> = {
  EXE: Package,
  MSI: Package,
  CUSTOM_ZIP: Archive,
  REGISTRY: KeyRound,
  FOLDER: FolderPlus,
  CMD: Terminal,
  POWERSHELL: SquareTerminal,
  REBOOT: RotateCcw,
  MESSAGE: MessageSquareText,
  WAIT: Hourglass,
};

const tones: Record<StepType, string> = {
  EXE: 'bg-sky-50 text-sky-600 dark:bg-sky-500/10 dark:text-sky-400',
  MSI: 'bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-400',
  CUSTOM_ZIP: 'bg-amber-50 text-amber-600 dark:bg-amber-500/10 dark:text-amber-400',
  REGISTRY: 'bg-violet-50 text-violet-600 dark:bg-violet-500/10 dark:text-violet-400',
  FOLDER: 'bg-emerald-50 text-emerald-600 dark:bg-emerald-500/10 dark:text-emerald-400',
  CMD: 'bg-slate-100 text-slate-700 dark:bg-slate-800 dark:text-slate-300',
  POWERSHELL: 'bg-blue-50 text-blue-700 dark:bg-blue-500/10 dark:text-blue-400',
  REBOOT: 'bg-rose-50 text-rose-600 dark:bg-rose-500/10 dark:text-rose-400',
  MESSAGE: 'bg-teal-50 text-teal-600 dark:bg-teal-500/10 dark:text-teal-400',
  WAIT: 'bg-orange-50 text-orange-600 dark:bg-orange-500/10 dark:text-orange-400',
};

export function StepTypeIcon({ type, className }: { type: StepType; className?: string }) {
  const Icon = icons[type] ?? FileCode2;
  return (
    <span
      className={cn(
        'inline-flex size-9 shrink-0 items-center justify-center rounded-lg',
        tones[type],
        className,
      )}
    >
      <Icon className="size-4.5" aria-hidden />
    </span>
  );
}
