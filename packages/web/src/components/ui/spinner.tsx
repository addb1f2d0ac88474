import { Loader2 } from 'lucide-react';
import { cn } from '../../lib/cn';

export function Spinner({ className, label }: { className?: string; label?: string }) {
  return <Loader2 aria-label={label ?? 'Loading'} className={cn('animate-spin', className ?? 'size-5')} />;
}

export function PageSpinner({ label }: { label?: string }) {
  return (
    <div
      className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-slate-500 dark:text-slate-400"
      role="status"
    >
      <Spinner className="size-8 text-indigo-600 dark:text-indigo-400" />
      {label && <p className="text-sm">{label}</p>}
    </div>
  );
}
