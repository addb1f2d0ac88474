import { cn } from '../../lib/cn';

export function Logo({ isCompact, className }: { isCompact?: boolean; className?: string }) {
  return (
    <div className={cn('flex items-center gap-2.5', className)}>
      <img src="/favicon.svg" alt="" className="size-8 shrink-0" />
      {!isCompact && (
        <div className="leading-tight">
          <p className="text-sm font-bold tracking-tight text-slate-900 dark:text-white">Outpost</p>
          <p className="text-[11px] font-medium text-slate-500 dark:text-slate-400">Customer Portal</p>
        </div>
      )}
    </div>
  );
}
