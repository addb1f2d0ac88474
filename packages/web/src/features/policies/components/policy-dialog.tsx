import { useId, useState } from 'react';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select, Switch, Textarea } from '../../../components/ui/form';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useSiteOptions } from '../../../lib/api/devices';
import { usePolicyOptions, useSavePolicy } from '../api/policies';
import type { Policy } from '../api/policies';
import { emptyPolicyForm, policyFormToBody, policyToForm, validatePolicyForm } from '../lib/policy-form';
import type { PolicyForm } from '../lib/policy-form';
import { ScheduleFields } from './schedule-fields';
import { TargetFields } from './target-fields';

// The Create Policy and Edit Policy dialog (docs/product/device-sets.md#automation-policies).
// The whole organisation is offered to administrators of all sites only; the group target only
// when the server has groups. Mounted while open, keyed by the policy.
export function PolicyDialog({ policy, onClose }: { policy: Policy | null; onClose: () => void }) {
  const toast = useToast();
  const me = useUser();
  const save = useSavePolicy();
  const sites = useSiteOptions();
  const options = usePolicyOptions();
  const mayTargetTenant = me.role === 'tenant_admin' && me.site_access_type !== 'specific';
  const [form, setForm] = useState<PolicyForm>(() =>
    policy ? policyToForm(policy) : { ...emptyPolicyForm, target_type: mayTargetTenant ? 'tenant' : 'site' },
  );
  const [error, setError] = useState<string | null>(null);
  const baseId = useId();
  const idOf = (name: string) => `${baseId}-${name}`;
  const isEdit = policy !== null;
  const groups = options.data?.groups ?? null;

  const change = (patch: Partial<PolicyForm>) => {
    setForm((f) => ({ ...f, ...patch }));
    setError(null);
  };

  const submit = () => {
    const problem = validatePolicyForm(form);
    if (problem) {
      setError(problem);
      return;
    }
    save.mutate(
      { id: policy?.id, body: policyFormToBody(form) },
      {
        onSuccess: (saved) => {
          toast.show({
            type: 'success',
            title: isEdit ? 'Policy updated' : 'Policy created',
            message: `${saved.name} was ${isEdit ? 'updated' : 'created'}`,
          });
          onClose();
        },
        onError: (err) => setError(errorMessage(err, 'Failed to save the policy')),
      },
    );
  };

  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="lg"
      title={isEdit ? 'Edit Policy' : 'Create Policy'}
      description="Deploy a package automatically: on a schedule, or to each device as it joins."
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" type="submit" form="policy-form" isLoading={save.isPending}>
            {isEdit ? 'Save Changes' : 'Create Policy'}
          </Button>
        </>
      }
    >
      <form
        id="policy-form"
        noValidate
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
      >
        {error && <Alert>{error}</Alert>}
        <Field label="Name" htmlFor={idOf('name')} required>
          <Input
            id={idOf('name')}
            autoComplete="off"
            placeholder="Weekly browser update"
            value={form.name}
            onChange={(e) => change({ name: e.target.value })}
          />
        </Field>
        <Field label="Description" htmlFor={idOf('description')}>
          <Textarea
            id={idOf('description')}
            rows={2}
            className="min-h-16"
            value={form.description}
            onChange={(e) => change({ description: e.target.value })}
          />
        </Field>
        <TargetFields
          form={form}
          idOf={idOf}
          onChange={change}
          mayTargetTenant={mayTargetTenant}
          sites={sites.data ?? []}
          groups={groups}
        />
        <Field label="Package" htmlFor={idOf('package_id')} required>
          <Select
            id={idOf('package_id')}
            value={form.package_id}
            onChange={(e) => change({ package_id: e.target.value })}
          >
            <option value="">{options.isPending ? 'Loading packages…' : 'Choose a package…'}</option>
            {(options.data?.packages ?? []).map((p) => (
              <option key={p.id} value={p.id}>
                {p.name} {p.package_version}
              </option>
            ))}
          </Select>
        </Field>
        <Field label="Trigger" htmlFor={idOf('trigger')} required>
          <Select
            id={idOf('trigger')}
            value={form.trigger}
            onChange={(e) => change({ trigger: e.target.value as PolicyForm['trigger'] })}
          >
            <option value="schedule">On a schedule</option>
            <option value="join">When a device joins the target</option>
          </Select>
        </Field>
        {form.trigger === 'schedule' ? (
          <ScheduleFields form={form} idOf={idOf} onChange={change} />
        ) : (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            Each device that enrols into the target, or is added to the group, after the policy is enabled
            gets the package once per package version.
          </p>
        )}
        {!isEdit && (
          <Switch
            label="Enabled"
            description="A disabled policy runs nothing until it is enabled."
            checked={form.enabled}
            onChange={(enabled) => change({ enabled })}
          />
        )}
      </form>
    </Dialog>
  );
}
