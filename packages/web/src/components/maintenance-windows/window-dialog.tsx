import { useId, useState } from 'react';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/form';
import { useToast } from '../ui/toast';
import { errorMessage } from '../../lib/api-client';
import { cn } from '../../lib/cn';
import { useSaveMaintenanceWindow } from '../../lib/api/maintenance-windows';
import type { MaintenanceWindow, WindowOwner } from '../../lib/api/maintenance-windows';
import { DAY_CHIPS, emptyWindowForm, formToBody, windowToForm } from './window-form';
import type { WindowForm } from './window-form';

// docs/product/rollouts.md#maintenance-windows: add or change a window (name, days, start time,
// duration, enabled). Mounted while open, so each opening starts from the window's values.
export function WindowDialog({
  owner,
  window: w,
  zoneText,
  onClose,
}: {
  owner: WindowOwner;
  window: MaintenanceWindow | null;
  zoneText: string;
  onClose: () => void;
}) {
  const toast = useToast();
  const save = useSaveMaintenanceWindow();
  const [form, setForm] = useState<WindowForm>(() => (w ? windowToForm(w) : emptyWindowForm));
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  const id = (name: string) => `${baseId}-${name}`;

  const set = <K extends keyof WindowForm>(key: K, value: WindowForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    setError(null);
  };
  const toggleDay = (day: number) =>
    set('days', form.days.includes(day) ? form.days.filter((d) => d !== day) : [...form.days, day]);

  const submit = () => {
    const checked = formToBody(form, owner);
    if ('error' in checked) {
      setError(checked.error);
      return;
    }
    save.mutate(
      { id: w?.id, body: checked.body },
      {
        onSuccess: (saved) => {
          toast.show({
            type: 'success',
            title: w ? 'Window updated' : 'Window added',
            message: `${saved.name} was ${w ? 'updated' : 'added'}`,
          });
          onClose();
        },
        onError: (err) => setError(errorMessage(err, 'Failed to save the window')),
      },
    );
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={w ? 'Edit maintenance window' : 'Add maintenance window'}
      description={`Deployments that run only inside maintenance windows start devices in these hours (${zoneText}).`}
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={id('form')} isLoading={save.isPending}>
            {w ? 'Save Changes' : 'Add Window'}
          </Button>
        </>
      }
    >
      <form
        id={id('form')}
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {error && <Alert>{error}</Alert>}
        <Field label="Name" htmlFor={id('name')} required>
          <Input
            id={id('name')}
            autoComplete="off"
            placeholder="Weeknights"
            value={form.name}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <DayChips days={form.days} onToggle={toggleDay} />
        <div className="grid gap-4 sm:grid-cols-3">
          <Field label="Start time" htmlFor={id('start')} required>
            <Input
              id={id('start')}
              type="time"
              step={60}
              value={form.start_time}
              onChange={(e) => set('start_time', e.target.value)}
            />
          </Field>
          <Field label="Hours" htmlFor={id('hours')}>
            <Input
              id={id('hours')}
              type="number"
              min={0}
              max={24}
              inputMode="numeric"
              value={form.hours}
              onChange={(e) => set('hours', e.target.value)}
            />
          </Field>
          <Field label="Minutes" htmlFor={id('minutes')}>
            <Input
              id={id('minutes')}
              type="number"
              min={0}
              max={59}
              step={5}
              inputMode="numeric"
              value={form.minutes}
              onChange={(e) => set('minutes', e.target.value)}
            />
          </Field>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
          <input
            type="checkbox"
            className="size-4 rounded border-slate-300 text-indigo-600 focus:ring-indigo-600 dark:border-slate-600 dark:bg-slate-900"
            checked={form.enabled}
            onChange={(e) => set('enabled', e.target.checked)}
          />
          Enabled
        </label>
      </form>
    </Dialog>
  );
}

/** The days as Mon–Sun toggle chips. */
function DayChips({ days, onToggle }: { days: number[]; onToggle: (day: number) => void }) {
  return (
    <fieldset>
      <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">Days</legend>
      <div className="flex flex-wrap gap-1.5">
        {DAY_CHIPS.map((d) => {
          const isOn = days.includes(d.value);
          return (
            <button
              key={d.value}
              type="button"
              aria-pressed={isOn}
              aria-label={d.long}
              onClick={() => onToggle(d.value)}
              className={cn(
                'h-8 min-w-11 rounded-full px-3 text-sm font-medium ring-1 transition-colors ring-inset',
                isOn
                  ? 'bg-indigo-600 text-white ring-indigo-600 hover:bg-indigo-500 dark:bg-indigo-500 dark:ring-indigo-500'
                  : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50 dark:bg-slate-900 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-800',
              )}
            >
              {d.short}
            </button>
          );
        })}
      </div>
    </fieldset>
  );
}
