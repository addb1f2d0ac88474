import { useState } from 'react';
import type { ReactNode } from 'react';
import type { AlertRoute } from '@outpost/contract/alerts';
import { ALERT_CONDITION_LABELS, ALERT_CONDITIONS } from '@outpost/contract/alerts';
import { SEVERITIES, SEVERITY_LABELS } from '@outpost/contract/checks';
import type { NotificationChannel } from '@outpost/contract/notification-channels';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Checkbox, Field, Input, Select, Switch } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api-client';
import { useDeployGroups } from '../../../lib/api/deploy-groups';
import { useSiteOptions } from '../../../lib/api/devices';
import { useSaveAlertRoute } from '../api/alert-routes';
import { routeBodyOf, routeFormOf, toggled } from '../lib/route-form';
import type { RouteErrors, RouteForm } from '../lib/route-form';

// Create or change a routing rule (docs/product/monitoring.md#routing-rules).

function Choices({
  legend,
  hint,
  error,
  children,
}: {
  legend: string;
  hint?: string;
  error?: string;
  children: ReactNode;
}) {
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">{legend}</legend>
      <div className="flex flex-wrap gap-x-5 gap-y-2 pt-1">{children}</div>
      {hint && !error && <p className="text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
      {error && <p className="text-xs text-red-600 dark:text-red-400">{error}</p>}
    </fieldset>
  );
}

export function RouteDialog({
  route,
  channels,
  onClose,
}: {
  /** undefined: closed; null: a new rule */
  route: AlertRoute | null | undefined;
  channels: NotificationChannel[];
  onClose: () => void;
}) {
  return route === undefined ? null : (
    <RouteFormDialog key={route?.id ?? 'new'} route={route} channels={channels} onClose={onClose} />
  );
}

function TargetFields({
  form,
  errors,
  set,
}: {
  form: RouteForm;
  errors: RouteErrors;
  set: <K extends keyof RouteForm>(k: K, v: RouteForm[K]) => void;
}) {
  const sites = useSiteOptions();
  const groups = useDeployGroups(true);
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <Field label="Devices" htmlFor="route-target">
        <Select
          id="route-target"
          value={form.target_type}
          onChange={(e) => set('target_type', e.target.value as RouteForm['target_type'])}
        >
          <option value="tenant">All devices</option>
          <option value="site">Devices of a site</option>
          <option value="group">Devices of a group</option>
        </Select>
      </Field>
      {form.target_type === 'site' && (
        <Field label="Site" htmlFor="route-site" error={errors.site_id}>
          <Select id="route-site" value={form.site_id} onChange={(e) => set('site_id', e.target.value)}>
            <option value="">Choose a site…</option>
            {(sites.data ?? []).map((s) => (
              <option key={s.id} value={String(s.id)}>
                {s.site_name}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {form.target_type === 'group' && (
        <Field label="Group" htmlFor="route-group" error={errors.group_id}>
          <Select id="route-group" value={form.group_id} onChange={(e) => set('group_id', e.target.value)}>
            <option value="">Choose a group…</option>
            {(groups.data?.data ?? []).map((g) => (
              <option key={g.id} value={String(g.id)}>
                {g.name}
              </option>
            ))}
          </Select>
        </Field>
      )}
    </div>
  );
}

function RouteFormDialog({
  route,
  channels,
  onClose,
}: {
  route: AlertRoute | null;
  channels: NotificationChannel[];
  onClose: () => void;
}) {
  const [form, setForm] = useState<RouteForm>(() => routeFormOf(route));
  const [errors, setErrors] = useState<RouteErrors>({});
  const [failure, setFailure] = useState<string | null>(null);
  const save = useSaveAlertRoute();
  const set = <K extends keyof RouteForm>(key: K, value: RouteForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  async function submit() {
    const out = routeBodyOf(form);
    if ('errors' in out) {
      setErrors(out.errors);
      return;
    }
    setErrors({});
    try {
      await save.mutateAsync({ id: route?.id ?? null, body: out.body });
      onClose();
    } catch (err) {
      setFailure(errorMessage(err, 'Could not save the rule'));
    }
  }

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title={route ? `Edit ${route.name}` : 'New routing rule'}
      description="Alerts matching the rule go to its channels; an alert goes once to each channel any matching rule names."
      size="lg"
      isDismissDisabled={save.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="primary" isLoading={save.isPending} onClick={() => void submit()}>
            {route ? 'Save' : 'Create rule'}
          </Button>
        </>
      }
    >
      <form
        className="space-y-5"
        onSubmit={(e) => {
          e.preventDefault();
          void submit();
        }}
      >
        {failure && <Alert tone="error">{failure}</Alert>}
        <Field label="Name" htmlFor="route-name" error={errors.name}>
          <Input
            id="route-name"
            value={form.name}
            placeholder="Critical to on-call"
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Choices legend="Severities" error={errors.severities}>
          {SEVERITIES.map((s) => (
            <Checkbox
              key={s}
              label={SEVERITY_LABELS[s]}
              checked={form.severities.includes(s)}
              onChange={() => set('severities', toggled(form.severities, s))}
            />
          ))}
        </Choices>
        <Choices legend="Conditions" hint="None chosen: every condition." error={errors.conditions}>
          {ALERT_CONDITIONS.map((c) => (
            <Checkbox
              key={c}
              label={ALERT_CONDITION_LABELS[c]}
              checked={form.conditions.includes(c)}
              onChange={() => set('conditions', toggled(form.conditions, c))}
            />
          ))}
        </Choices>
        <TargetFields form={form} errors={errors} set={set} />
        <Choices
          legend="Channels"
          error={errors.channel_ids}
          hint={channels.length === 0 ? 'Create a channel first.' : undefined}
        >
          {channels.map((c) => (
            <Checkbox
              key={c.id}
              label={c.enabled ? c.name : `${c.name} (disabled)`}
              checked={form.channel_ids.includes(c.id)}
              onChange={() => set('channel_ids', toggled(form.channel_ids, c.id))}
            />
          ))}
        </Choices>
        <Switch
          checked={form.enabled}
          onChange={(v) => set('enabled', v)}
          label="Enabled"
          description="A disabled rule routes nothing."
        />
      </form>
    </Dialog>
  );
}
