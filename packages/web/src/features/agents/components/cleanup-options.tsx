import { CLEANUP_MAX_DAYS, CLEANUP_MIN_DAYS } from '@outpost/contract/device-cleanup';
import { Alert } from '../../../components/ui/alert';
import { Checkbox, Field, Input } from '../../../components/ui/form';

/** The cleanup's options: agents offline for longer than some days, and/or duplicate registrations. */
export function CleanupOptions({
  error,
  useDays,
  days,
  duplicates,
  onUseDaysChange,
  onDaysChange,
  onDuplicatesChange,
}: {
  error: string | null;
  useDays: boolean;
  days: string;
  duplicates: boolean;
  onUseDaysChange: (value: boolean) => void;
  onDaysChange: (value: string) => void;
  onDuplicatesChange: (value: boolean) => void;
}) {
  return (
    <div className="space-y-5">
      {error && <Alert>{error}</Alert>}
      <div className="space-y-3 rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-800">
        <Checkbox
          label="Remove agents offline for longer than"
          checked={useDays}
          onChange={(e) => onUseDaysChange(e.target.checked)}
        />
        <Field label="Days offline" htmlFor="cleanup-days" hint="From 1 to 365 days (default 30).">
          <div className="w-32">
            <Input
              id="cleanup-days"
              type="number"
              min={CLEANUP_MIN_DAYS}
              max={CLEANUP_MAX_DAYS}
              value={days}
              disabled={!useDays}
              onChange={(e) => onDaysChange(e.target.value)}
            />
          </div>
        </Field>
      </div>
      <div className="rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-800">
        <Checkbox
          label="Remove duplicate registrations"
          checked={duplicates}
          onChange={(e) => onDuplicatesChange(e.target.checked)}
        />
        <p className="mt-1.5 pl-6 text-xs text-slate-500 dark:text-slate-400">
          Same serial number, or same hostname and MAC address. The registration enrolled first among those
          whose agent has connected is kept; an online record, or one that connected more recently, is never
          removed. You see what will happen before anything is removed.
        </p>
      </div>
    </div>
  );
}
