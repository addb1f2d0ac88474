import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { UseFormReturn } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  OFFLINE_ALERT_MAX_MINUTES,
  OFFLINE_ALERT_MIN_MINUTES,
  SEVERITIES,
  SEVERITY_LABELS,
} from '@outpost/contract/checks';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select, Switch } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useSiteOptions } from '../../../lib/api/devices';
import { usePolicyOptions } from '../api/policies';
import { useSaveMonitoringPolicy } from '../api/monitoring-policies';
import type { MonitoringPolicy } from '../api/monitoring-policies';
import {
  MonitoringFormSchema,
  emptyMonitoringForm,
  monitoringFormToBody,
  monitoringPolicyToForm,
} from '../lib/monitoring-form';
import type { MonitoringFormOutput, MonitoringFormValues } from '../lib/monitoring-form';
import { CheckEditor } from './check-editor';
import { TargetFields } from './target-fields';

// The Create and Edit Monitoring Policy dialog (docs/product/monitoring.md#monitoring-policies):
// name, target, checks and the offline alert. The whole organisation is offered to
// administrators of all sites only. Mounted while open, keyed by the policy.

const FORM_ID = 'monitoring-policy-form';

export function MonitoringPolicyDialog({
  policy,
  onClose,
}: {
  policy: MonitoringPolicy | null;
  onClose: () => void;
}) {
  const toast = useToast();
  const me = useUser();
  const save = useSaveMonitoringPolicy();
  const sites = useSiteOptions();
  const options = usePolicyOptions();
  const mayTargetTenant = me.role === 'tenant_admin' && me.site_access_type !== 'specific';
  const form = useForm<MonitoringFormValues, unknown, MonitoringFormOutput>({
    defaultValues: policy
      ? monitoringPolicyToForm(policy)
      : emptyMonitoringForm(mayTargetTenant ? 'tenant' : 'site'),
    resolver: zodResolver(MonitoringFormSchema),
    mode: 'onSubmit',
    reValidateMode: 'onChange',
  });
  const { register, setValue, formState } = form;
  const [targetType, siteId, groupId, offlineMinutes, isEnabled] = useWatch({
    control: form.control,
    name: ['target_type', 'site_id', 'group_id', 'offline_alert_minutes', 'enabled'],
  });
  const baseId = useId();
  const idOf = (name: string) => `${baseId}-${name}`;
  const isEdit = policy !== null;

  const onSubmit = (values: MonitoringFormOutput) =>
    save.mutate(
      { id: policy?.id, body: monitoringFormToBody(values) },
      {
        onSuccess: (saved) => {
          toast.show({
            type: 'success',
            title: isEdit ? 'Monitoring policy updated' : 'Monitoring policy created',
            message: `${saved.name} was ${isEdit ? 'updated' : 'created'}`,
          });
          onClose();
        },
        onError: (err) => form.setError('root', { message: errorMessage(err, 'Failed to save the policy') }),
      },
    );

  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="xl"
      title={isEdit ? 'Edit Monitoring Policy' : 'Create Monitoring Policy'}
      description="The checks every device of the target runs, and how long a device may stay offline before an alert."
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form={FORM_ID} isLoading={save.isPending}>
            {isEdit ? 'Save Changes' : 'Create Policy'}
          </Button>
        </>
      }
    >
      <form
        id={FORM_ID}
        noValidate
        className="space-y-5"
        onSubmit={(e) => void form.handleSubmit(onSubmit)(e)}
      >
        {formState.errors.root?.message && <Alert>{formState.errors.root.message}</Alert>}
        {Object.keys(formState.errors).some((k) => k !== 'root') && (
          <Alert>Some fields need attention: see the messages below.</Alert>
        )}
        <div className="grid gap-4 sm:grid-cols-2">
          <Field label="Name" htmlFor={idOf('name')} error={formState.errors.name?.message} required>
            <Input id={idOf('name')} autoComplete="off" placeholder="Windows servers" {...register('name')} />
          </Field>
          <Field
            label="Description"
            htmlFor={idOf('description')}
            error={formState.errors.description?.message}
          >
            <Input id={idOf('description')} autoComplete="off" {...register('description')} />
          </Field>
        </div>
        <TargetFields
          form={{ target_type: targetType, site_id: siteId, group_id: groupId }}
          idOf={idOf}
          onChange={(patch) => {
            for (const [key, value] of Object.entries(patch) as [keyof typeof patch, string][]) {
              setValue(key, value as never, { shouldValidate: formState.isSubmitted });
            }
          }}
          mayTargetTenant={mayTargetTenant}
          sites={sites.data ?? []}
          groups={options.data?.groups ?? null}
          errors={{
            site_id: formState.errors.site_id?.message,
            group_id: formState.errors.group_id?.message,
          }}
        />
        <CheckEditor form={form} idOf={idOf} />
        <OfflineAlertFields form={form} idOf={idOf} minutes={offlineMinutes} />
        {!isEdit && (
          <Switch
            label="Enabled"
            description="A disabled policy's checks run nowhere until it is enabled."
            checked={isEnabled}
            onChange={(enabled) => setValue('enabled', enabled)}
          />
        )}
      </form>
    </Dialog>
  );
}

/** The offline alert: off, or after how many minutes and with which severity. */
function OfflineAlertFields({
  form,
  idOf,
  minutes,
}: {
  form: UseFormReturn<MonitoringFormValues, unknown, MonitoringFormOutput>;
  idOf: (name: string) => string;
  minutes: number | null | undefined;
}) {
  const { register, setValue, formState } = form;
  const isOfflineOn = minutes !== null && minutes !== undefined;
  return (
    <section className="rounded-lg border border-slate-200 px-4 dark:border-slate-800">
      <Switch
        label="Alert when a device goes offline"
        description="An alert opens when a device of the target stays offline this long."
        checked={isOfflineOn}
        onChange={(on) =>
          setValue('offline_alert_minutes', on ? 30 : null, { shouldValidate: formState.isSubmitted })
        }
      />
      {isOfflineOn && (
        <div className="grid gap-4 pb-4 sm:grid-cols-2">
          <Field
            label="Offline for (minutes)"
            htmlFor={idOf('offline-minutes')}
            error={formState.errors.offline_alert_minutes?.message}
            hint={`${OFFLINE_ALERT_MIN_MINUTES} minutes to 30 days`}
            required
          >
            <Input
              id={idOf('offline-minutes')}
              type="number"
              min={OFFLINE_ALERT_MIN_MINUTES}
              max={OFFLINE_ALERT_MAX_MINUTES}
              {...register('offline_alert_minutes', { valueAsNumber: true })}
            />
          </Field>
          <Field label="Severity" htmlFor={idOf('offline-severity')} required>
            <Select id={idOf('offline-severity')} {...register('offline_severity')}>
              {SEVERITIES.map((s) => (
                <option key={s} value={s}>
                  {SEVERITY_LABELS[s]}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      )}
    </section>
  );
}
