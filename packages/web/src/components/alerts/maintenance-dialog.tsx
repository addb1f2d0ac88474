import { useId, useState } from 'react';
import { Wrench } from 'lucide-react';
import type { Maintenance } from '@outpost/contract/alerts';
import { MAINTENANCE_PRESETS, maintenanceMinutes } from '../../lib/alert-view';
import type { CustomUnit, MaintenancePreset } from '../../lib/alert-view';
import { errorMessage } from '../../lib/api-client';
import { useSetMaintenance } from '../../lib/api/alerts';
import type { MaintenanceTarget } from '../../lib/api/alerts';
import { cn } from '../../lib/cn';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Field, Input, Select } from '../ui/form';
import { useToast } from '../ui/toast';

// docs/product/monitoring.md#maintenance-mode — a device's or a site's alerts are silenced for a
// while: a preset duration or a custom one, and an optional reason.

type MaintenanceDialogProps = {
  /** null: closed */
  target: MaintenanceTarget | null;
  /** what is put in maintenance, for the title */
  name: string;
  onClose: () => void;
  onSaved?: (m: Maintenance | null) => void;
};

/** Each opening starts from the defaults (1 hour, no reason). */
export function MaintenanceDialog(props: MaintenanceDialogProps) {
  return props.target ? <MaintenanceForm {...props} target={props.target} /> : null;
}

function MaintenanceForm({
  target,
  name,
  onClose,
  onSaved,
}: MaintenanceDialogProps & { target: MaintenanceTarget }) {
  const save = useSetMaintenance();
  const toast = useToast();
  const ids = { reason: useId(), amount: useId() };
  const [preset, setPreset] = useState<MaintenancePreset>('1h');
  const [amount, setAmount] = useState('2');
  const [unit, setUnit] = useState<CustomUnit>('hours');
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  async function submit() {
    const duration = maintenanceMinutes(preset, amount, unit);
    if ('error' in duration) {
      setError(duration.error);
      return;
    }
    try {
      const r = await save.mutateAsync({
        target,
        body: { minutes: duration.minutes, reason: reason.trim() || undefined },
      });
      toast.show({ type: 'success', title: 'Maintenance mode on', message: `${name}: alerts are silenced.` });
      onSaved?.(r.maintenance);
      onClose();
    } catch (err) {
      setError(errorMessage(err, 'Could not start maintenance'));
    }
  }

  return (
    <Dialog
      isOpen
      onClose={onClose}
      isDismissDisabled={save.isPending}
      title={`Maintenance mode: ${name}`}
      description="Alerts opening during maintenance are recorded but no one is told."
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button
            variant="primary"
            icon={<Wrench className="size-4" />}
            isLoading={save.isPending}
            onClick={() => void submit()}
          >
            Start maintenance
          </Button>
        </>
      }
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        <fieldset>
          <legend className="mb-1.5 block text-sm font-medium text-slate-700 dark:text-slate-200">
            Duration
          </legend>
          <div className="grid grid-cols-3 gap-2 sm:grid-cols-5" role="radiogroup" aria-label="Duration">
            {[...MAINTENANCE_PRESETS, { key: 'custom' as const, label: 'Custom' }].map((p) => (
              <button
                key={p.key}
                type="button"
                role="radio"
                aria-checked={preset === p.key}
                onClick={() => {
                  setPreset(p.key);
                  setError(null);
                }}
                className={cn(
                  'h-9 rounded-md px-2 text-sm font-medium ring-1 transition-colors ring-inset',
                  preset === p.key
                    ? 'bg-indigo-600 text-white ring-indigo-600'
                    : 'bg-white text-slate-700 ring-slate-300 hover:bg-slate-50 dark:bg-slate-800 dark:text-slate-200 dark:ring-slate-700 dark:hover:bg-slate-700',
                )}
              >
                {p.label}
              </button>
            ))}
          </div>
        </fieldset>
        {preset === 'custom' && (
          <Field label="Custom duration" htmlFor={ids.amount}>
            <div className="flex gap-2">
              <Input
                id={ids.amount}
                type="number"
                min={1}
                value={amount}
                onChange={(e) => setAmount(e.target.value)}
                className="w-28"
              />
              <Select
                aria-label="Unit"
                value={unit}
                onChange={(e) => setUnit(e.target.value as CustomUnit)}
                className="w-32"
              >
                <option value="minutes">minutes</option>
                <option value="hours">hours</option>
                <option value="days">days</option>
              </Select>
            </div>
          </Field>
        )}
        <Field
          label="Reason"
          htmlFor={ids.reason}
          hint="Optional: shown with the maintenance and in the audit log."
        >
          <Input
            id={ids.reason}
            value={reason}
            maxLength={200}
            placeholder="e.g. Replacing the disk"
            onChange={(e) => setReason(e.target.value)}
          />
        </Field>
        {error && (
          <p role="alert" className="text-sm text-red-600 dark:text-red-400">
            {error}
          </p>
        )}
      </form>
    </Dialog>
  );
}
