import { Info } from 'lucide-react';

// docs/product/rollouts.md#step-log — why a step did not run or waited (a skipped step's false
// condition), shown above the attempt's output.

export function StepNote({ note }: { note: string | null | undefined }) {
  if (!note) {
    return null;
  }
  return (
    <p
      className="flex items-start gap-2 rounded-md bg-slate-50 px-3 py-2 text-sm text-slate-700 ring-1 ring-slate-200 ring-inset dark:bg-slate-800/60 dark:text-slate-200 dark:ring-slate-700"
      data-testid="step-note"
    >
      <Info className="mt-0.5 size-4 shrink-0 text-slate-500 dark:text-slate-400" aria-hidden />
      <span className="break-words">{note}</span>
    </p>
  );
}
