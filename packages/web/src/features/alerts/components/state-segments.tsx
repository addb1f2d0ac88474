import { FilterSelect } from '../../../components/ui/list-toolbar';
import { SEGMENT_LABELS, STATE_SEGMENTS } from '../../../lib/alert-view';
import type { StateSegment } from '../../../lib/alert-view';
import { cn } from '../../../lib/cn';

type Props = { value: StateSegment; onChange: (v: StateSegment) => void };

/**
 * Active (open and acknowledged) / Open / Acknowledged / Resolved / All: a segmented control, or on
 * a phone (where the five do not fit) a select.
 */
export function StateSegments({ value, onChange }: Props) {
  return (
    <>
      <div className="sm:hidden">
        <FilterSelect
          label="State"
          value={value}
          onChange={onChange}
          options={STATE_SEGMENTS.map((s) => ({ value: s, label: SEGMENT_LABELS[s] }))}
        />
      </div>
      <StateRadios value={value} onChange={onChange} />
    </>
  );
}

function StateRadios({ value, onChange }: Props) {
  return (
    <div
      role="radiogroup"
      aria-label="State"
      className="hidden max-w-full self-start rounded-lg bg-slate-100 p-1 sm:inline-flex dark:bg-slate-800"
    >
      {STATE_SEGMENTS.map((s) => (
        <button
          key={s}
          type="button"
          role="radio"
          aria-checked={value === s}
          onClick={() => onChange(s)}
          className={cn(
            'rounded-md px-3 py-1.5 text-sm font-medium whitespace-nowrap transition-colors',
            value === s
              ? 'bg-white text-slate-900 shadow-sm dark:bg-slate-950 dark:text-white'
              : 'text-slate-600 hover:text-slate-900 dark:text-slate-400 dark:hover:text-white',
          )}
        >
          {SEGMENT_LABELS[s]}
        </button>
      ))}
    </div>
  );
}
