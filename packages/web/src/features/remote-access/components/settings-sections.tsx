import type { ReactNode } from 'react';
import { Gauge, ShieldCheck, SquareTerminal, Users } from 'lucide-react';
import { ROLES, roleLabel } from '@outpost/contract/auth';
import type { Role } from '@outpost/contract/auth';
import { Card, CardHeader } from '../../../components/ui/card';
import { Checkbox, Field, Input, Switch } from '../../../components/ui/form';
import type { FormErrors, SettingsForm } from '../lib/settings-form';

// docs/product/remote-access.md#settings — the settings page's sections: the switches, the
// roles, the terminal's session rules and the limits (disabled for those who cannot edit).

function Section({
  icon,
  title,
  description,
  children,
}: {
  icon: ReactNode;
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader
        title={
          <span className="inline-flex items-center gap-2">
            <span className="text-slate-400" aria-hidden>
              {icon}
            </span>
            {title}
          </span>
        }
        description={description}
      />
      <div className="px-5 py-2">{children}</div>
    </Card>
  );
}

function NumberField(props: {
  id: keyof SettingsForm;
  label: string;
  unit: string;
  hint: string;
  value: string;
  error?: string;
  disabled: boolean;
  onChange: (v: string) => void;
}) {
  return (
    <Field label={props.label} htmlFor={`remote-${props.id}`} hint={props.hint} error={props.error}>
      <div className="flex items-center gap-2">
        <Input
          id={`remote-${props.id}`}
          inputMode="numeric"
          className="w-28"
          value={props.value}
          disabled={props.disabled}
          onChange={(e) => props.onChange(e.target.value)}
        />
        <span className="text-sm text-slate-500 dark:text-slate-400">{props.unit}</span>
      </div>
    </Field>
  );
}

export function SettingsSections({
  form,
  errors,
  readOnly,
  set,
}: {
  form: SettingsForm;
  errors: FormErrors;
  readOnly: boolean;
  set: <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) => void;
}) {
  const toggleRole = (role: Role, on: boolean) =>
    set(
      'allowed_roles',
      on ? [...new Set([...form.allowed_roles, role])] : form.allowed_roles.filter((r) => r !== role),
    );
  return (
    <>
      <Section
        icon={<ShieldCheck className="size-4" />}
        title="Features"
        description="Turned off, nobody in the organisation can use it, and devices refuse it too."
      >
        <Switch
          checked={form.terminal_enabled}
          disabled={readOnly}
          onChange={(v) => set('terminal_enabled', v)}
          label="Remote terminal"
          description="An interactive shell on a device, in the browser."
        />
        <Switch
          checked={form.files_enabled}
          disabled={readOnly}
          onChange={(v) => set('files_enabled', v)}
          label="File transfer"
          description="Browse a device's folders, download files from it and upload files to it."
        />
      </Section>
      <Section
        icon={<Users className="size-4" />}
        title="Who may use them"
        description="Always within the sites each person may see."
      >
        <div className="flex flex-wrap gap-6 py-3" role="group" aria-label="Allowed roles">
          {ROLES.map((role) => (
            <Checkbox
              key={role}
              label={`${roleLabel(role)}s`}
              checked={form.allowed_roles.includes(role)}
              disabled={readOnly}
              onChange={(e) => toggleRole(role, e.target.checked)}
            />
          ))}
        </div>
        {errors.allowed_roles && (
          <p className="pb-3 text-xs text-red-600 dark:text-red-400">{errors.allowed_roles}</p>
        )}
      </Section>
      <Section
        icon={<SquareTerminal className="size-4" />}
        title="Terminal sessions"
        description="What the person at the device sees, and how long a session may last."
      >
        <Switch
          checked={form.consent_required}
          disabled={readOnly}
          onChange={(v) => set('consent_required', v)}
          label="Ask for consent"
          description="The user signed in on the device must accept before a session starts."
        />
        <Switch
          checked={form.show_banner}
          disabled={readOnly}
          onChange={(v) => set('show_banner', v)}
          label="Show a banner"
          description="The device shows that a session is running while it runs."
        />
        <div className="grid gap-4 pt-2 pb-4 sm:grid-cols-2">
          <NumberField
            id="idle_timeout_minutes"
            label="Idle timeout"
            unit="minutes"
            hint="A session without input or output this long ends."
            value={form.idle_timeout_minutes}
            error={errors.idle_timeout_minutes}
            disabled={readOnly}
            onChange={(v) => set('idle_timeout_minutes', v)}
          />
          <NumberField
            id="max_session_minutes"
            label="Longest session"
            unit="minutes"
            hint="A session ends after this long."
            value={form.max_session_minutes}
            error={errors.max_session_minutes}
            disabled={readOnly}
            onChange={(v) => set('max_session_minutes', v)}
          />
        </div>
      </Section>
      <Section
        icon={<Gauge className="size-4" />}
        title="Limits"
        description="Bounds on what a session or a transfer moves."
      >
        <div className="grid gap-4 py-4 sm:grid-cols-2">
          <NumberField
            id="rate_kib"
            label="Data rate"
            unit="KiB/s"
            hint="Bytes per second in each direction of a terminal session."
            value={form.rate_kib}
            error={errors.rate_kib}
            disabled={readOnly}
            onChange={(v) => set('rate_kib', v)}
          />
          <NumberField
            id="file_mib"
            label="Largest file"
            unit="MiB"
            hint="The largest file a transfer moves, either way."
            value={form.file_mib}
            error={errors.file_mib}
            disabled={readOnly}
            onChange={(v) => set('file_mib', v)}
          />
        </div>
      </Section>
    </>
  );
}
