import { Field, Input, Select } from '../../../components/ui/form';
import { cn } from '../../../lib/cn';
import { WEEKDAYS } from '../lib/policy-form';
import type { Frequency, PolicyForm } from '../lib/policy-form';

// The schedule inputs of the policy dialog (docs/product/device-sets.md#automation-policies):
// frequency, local time, the days of a weekly schedule, the day of a monthly one.

const DAYS_OF_MONTH = Array.from({ length: 28 }, (_, i) => String(i + 1));

export function ScheduleFields({
  form,
  idOf,
  onChange,
}: {
  form: PolicyForm;
  idOf: (name: string) => string;
  onChange: (patch: Partial<PolicyForm>) => void;
}) {
  const toggleDay = (day: number) =>
    onChange({
      weekdays: form.weekdays.includes(day)
        ? form.weekdays.filter((d) => d !== day)
        : [...form.weekdays, day],
    });
  return (
    <div className="space-y-4 rounded-lg border border-slate-200 bg-slate-50/60 p-4 dark:border-slate-800 dark:bg-slate-900/40">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Repeats" htmlFor={idOf('frequency')}>
          <Select
            id={idOf('frequency')}
            value={form.frequency}
            onChange={(e) => onChange({ frequency: e.target.value as Frequency })}
          >
            <option value="daily">Daily</option>
            <option value="weekly">Weekly</option>
            <option value="monthly">Monthly</option>
          </Select>
        </Field>
        <Field label="Local time" htmlFor={idOf('time')} hint="In each site's time zone (UTC without one)">
          <Input
            id={idOf('time')}
            type="time"
            step={60}
            value={form.time}
            onChange={(e) => onChange({ time: e.target.value })}
          />
        </Field>
      </div>
      {form.frequency === 'weekly' && (
        <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">On</legend>
          <div className="flex flex-wrap gap-1.5">
            {WEEKDAYS.map((d) => {
              const isOn = form.weekdays.includes(d.value);
              return (
                <button
                  key={d.value}
                  type="button"
                  aria-pressed={isOn}
                  aria-label={d.label}
                  onClick={() => toggleDay(d.value)}
                  className={cn(
                    'h-8 min-w-12 rounded-md px-2.5 text-sm font-medium ring-1 transition-colors ring-inset',
                    'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
                    isOn
                      ? 'bg-indigo-600 text-white ring-indigo-600 hover:bg-indigo-500'
                      : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-800',
                  )}
                >
                  {d.short}
                </button>
              );
            })}
          </div>
        </fieldset>
      )}
      {form.frequency === 'monthly' && (
        <Field label="Day of the month" htmlFor={idOf('day_of_month')}>
          <Select
            id={idOf('day_of_month')}
            value={form.day_of_month}
            onChange={(e) => onChange({ day_of_month: e.target.value })}
          >
            {DAYS_OF_MONTH.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
            <option value="last">Last day of the month</option>
          </Select>
        </Field>
      )}
    </div>
  );
}
