import { Moon, Layers } from 'lucide-react';
import type { ReactNode } from 'react';
import { Field, Input, Select, Switch } from '../../../components/ui/form';
import type { ChannelForm, FormErrors } from '../lib/channel-form';

// docs/product/monitoring.md#quiet-hours-and-digests — the channel dialog's Quiet hours (off, or
// start, end and time zone) and Digest (off, or more than N alerts in M minutes).

function timeZones(chosen: string): string[] {
  const all = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [...new Set(['UTC', ...all, chosen])];
}

function Section({ icon, children }: { icon: ReactNode; children: ReactNode }) {
  return (
    <div className="rounded-lg border border-slate-200 px-3 dark:border-slate-700">
      <div className="flex gap-3">
        <span className="mt-3.5 text-slate-400" aria-hidden>
          {icon}
        </span>
        <div className="min-w-0 flex-1 pb-1">{children}</div>
      </div>
    </div>
  );
}

export function DeliverySettings({
  form,
  errors,
  set,
}: {
  form: ChannelForm;
  errors: FormErrors;
  set: <K extends keyof ChannelForm>(key: K, value: ChannelForm[K]) => void;
}) {
  return (
    <div className="space-y-3">
      <Section icon={<Moon className="size-4" />}>
        <Switch
          checked={form.has_quiet_hours}
          onChange={(v) => set('has_quiet_hours', v)}
          label="Quiet hours"
          description="Alerts wait and go out as one digest when quiet hours end; critical alerts still go out at once."
        />
        {form.has_quiet_hours && (
          <div className="grid gap-3 pb-3 sm:grid-cols-[7rem_7rem_1fr]">
            <Field label="From" htmlFor="channel-quiet_start" error={errors.quiet_start}>
              <Input
                id="channel-quiet_start"
                type="time"
                value={form.quiet_start}
                onChange={(e) => set('quiet_start', e.target.value)}
              />
            </Field>
            <Field label="Until" htmlFor="channel-quiet_end" error={errors.quiet_end}>
              <Input
                id="channel-quiet_end"
                type="time"
                value={form.quiet_end}
                onChange={(e) => set('quiet_end', e.target.value)}
              />
            </Field>
            <Field label="Time zone" htmlFor="channel-quiet_time_zone" error={errors.quiet_time_zone}>
              <Select
                id="channel-quiet_time_zone"
                value={form.quiet_time_zone}
                onChange={(e) => set('quiet_time_zone', e.target.value)}
              >
                {timeZones(form.quiet_time_zone).map((tz) => (
                  <option key={tz} value={tz}>
                    {tz.replaceAll('_', ' ')}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
        )}
      </Section>
      <Section icon={<Layers className="size-4" />}>
        <Switch
          checked={form.has_digest}
          onChange={(v) => set('has_digest', v)}
          label="Digest"
          description="Instead of a flood: past a number of alerts in a while, the rest go out as one message."
        />
        {form.has_digest && (
          <div className="flex flex-wrap items-start gap-2 pb-3 text-sm text-slate-600 dark:text-slate-300">
            <span className="mt-2">More than</span>
            <Field
              label={<span className="sr-only">Alerts</span>}
              htmlFor="channel-digest_max_alerts"
              error={errors.digest_max_alerts}
            >
              <Input
                id="channel-digest_max_alerts"
                type="number"
                min={1}
                className="w-20"
                value={form.digest_max_alerts}
                onChange={(e) => set('digest_max_alerts', e.target.value)}
              />
            </Field>
            <span className="mt-2">alerts in</span>
            <Field
              label={<span className="sr-only">Minutes</span>}
              htmlFor="channel-digest_minutes"
              error={errors.digest_minutes}
            >
              <Input
                id="channel-digest_minutes"
                type="number"
                min={1}
                className="w-20"
                value={form.digest_minutes}
                onChange={(e) => set('digest_minutes', e.target.value)}
              />
            </Field>
            <span className="mt-2">minutes</span>
          </div>
        )}
      </Section>
    </div>
  );
}
