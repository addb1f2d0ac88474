import type { ReactNode } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { DEVICE_EVENTS, SCRIPT_SHELLS } from '@outpost/contract/checks';
import type { CheckType } from '@outpost/contract/checks';
import { Field, Input, Select, Textarea } from '../../../components/ui/form';
import type { MonitoringFormValues } from '../lib/monitoring-form';

// One check's settings by type (docs/product/monitoring.md#checks): the fields the contract's
// CheckConfig holds, with its messages under each field.

type Form = UseFormReturn<MonitoringFormValues>;
type FieldError = { message?: string } | undefined;

const num = { valueAsNumber: true } as const;
/** An optional number: an empty input is null (no such threshold). */
const optionalNum = { setValueAs: (v: unknown) => (v === '' || v === null ? null : Number(v)) } as const;

const EVENT_LABELS: Record<(typeof DEVICE_EVENTS)[number], string> = {
  reboot_pending: 'A reboot is pending',
  agent_crash: 'The agent restarted after a crash',
};
const SHELL_LABELS: Record<(typeof SCRIPT_SHELLS)[number], string> = {
  powershell: 'PowerShell',
  cmd: 'cmd.exe',
  sh: 'sh',
  bash: 'bash',
};

type Helpers = {
  field: (key: string, label: string, control: ReactNode, hint?: string, required?: boolean) => ReactNode;
  register: Form['register'];
  path: (key: string) => `checks.${number}.config.type`;
  id: (key: string) => string;
};

export function CheckConfigFields({
  form,
  index,
  type,
  idOf,
}: {
  form: Form;
  index: number;
  type: CheckType;
  idOf: (name: string) => string;
}) {
  const { register } = form;
  const errors = (form.formState.errors.checks?.[index]?.config ?? {}) as Record<string, FieldError>;
  const path = (key: string) => `checks.${index}.config.${key}` as `checks.${number}.config.type`;
  const id = (key: string) => idOf(`check-${index}-${key}`);
  const field = (key: string, label: string, control: ReactNode, hint?: string, required = true) => (
    <Field label={label} htmlFor={id(key)} error={errors[key]?.message} hint={hint} required={required}>
      {control}
    </Field>
  );
  const helpers: Helpers = { field, register, path, id };
  switch (type) {
    case 'cpu':
    case 'memory':
    case 'disk':
    case 'port':
      return numericFields(type, helpers);
    case 'service':
    case 'process':
    case 'script':
    case 'event':
      return textFields(type, helpers);
  }
}

function numericFields(
  type: 'cpu' | 'memory' | 'disk' | 'port',
  { field, register, path, id }: Helpers,
): ReactNode {
  switch (type) {
    case 'cpu':
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          {field(
            'percent',
            'Above (%)',
            <Input id={id('percent')} type="number" min={1} max={100} {...register(path('percent'), num)} />,
          )}
          {field(
            'minutes',
            'For (minutes)',
            <Input id={id('minutes')} type="number" min={1} max={60} {...register(path('minutes'), num)} />,
            'On average over this many minutes',
          )}
        </div>
      );
    case 'memory':
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          {field(
            'percent',
            'Memory in use above (%)',
            <Input id={id('percent')} type="number" min={1} max={100} {...register(path('percent'), num)} />,
          )}
        </div>
      );
    case 'disk':
      return (
        <div className="grid gap-3 sm:grid-cols-3">
          {field(
            'volume',
            'Volume',
            <Input
              id={id('volume')}
              className="font-mono"
              placeholder="C: or / or *"
              {...register(path('volume'))}
            />,
            '* watches every volume',
          )}
          {field(
            'min_free_percent',
            'Free below (%)',
            <Input
              id={id('min_free_percent')}
              type="number"
              min={1}
              max={100}
              placeholder="—"
              {...register(path('min_free_percent'), { ...optionalNum, deps: [path('min_free_gb')] })}
            />,
            undefined,
            false,
          )}
          {field(
            'min_free_gb',
            'or free below (GB)',
            <Input
              id={id('min_free_gb')}
              type="number"
              min={0}
              step="any"
              placeholder="—"
              {...register(path('min_free_gb'), { ...optionalNum, deps: [path('min_free_percent')] })}
            />,
            undefined,
            false,
          )}
        </div>
      );
    case 'port':
      return (
        <div className="grid gap-3 sm:grid-cols-[2fr_1fr_1fr]">
          {field(
            'host',
            'Host',
            <Input id={id('host')} className="font-mono" {...register(path('host'))} />,
            'localhost: a port on the device itself',
          )}
          {field(
            'port',
            'Port',
            <Input id={id('port')} type="number" min={1} max={65535} {...register(path('port'), num)} />,
          )}
          {field(
            'timeout_ms',
            'Timeout (ms)',
            <Input
              id={id('timeout_ms')}
              type="number"
              min={100}
              max={30000}
              {...register(path('timeout_ms'), num)}
            />,
          )}
        </div>
      );
  }
}

function textFields(
  type: 'service' | 'process' | 'script' | 'event',
  { field, register, path, id }: Helpers,
): ReactNode {
  switch (type) {
    case 'service':
      return field(
        'service',
        'Service name',
        <Input
          id={id('service')}
          className="font-mono"
          placeholder="Spooler, nginx.service, com.apple.…"
          {...register(path('service'))}
        />,
        'A Windows service, systemd unit or launchd job',
      );
    case 'process':
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          {field(
            'process',
            'Process name',
            <Input
              id={id('process')}
              className="font-mono"
              placeholder="backup-agent.exe"
              {...register(path('process'))}
            />,
          )}
          {field(
            'expect',
            'Alert when it is',
            <Select id={id('expect')} {...register(path('expect'))}>
              <option value="running">Not running</option>
              <option value="stopped">Running</option>
            </Select>,
          )}
        </div>
      );
    case 'script':
      return (
        <div className="space-y-3">
          <div className="grid gap-3 sm:grid-cols-2">
            {field(
              'shell',
              'Shell',
              <Select id={id('shell')} {...register(path('shell'))}>
                {SCRIPT_SHELLS.map((s) => (
                  <option key={s} value={s}>
                    {SHELL_LABELS[s]}
                  </option>
                ))}
              </Select>,
            )}
            {field(
              'timeout_seconds',
              'Timeout (seconds)',
              <Input
                id={id('timeout_seconds')}
                type="number"
                min={1}
                max={300}
                {...register(path('timeout_seconds'), num)}
              />,
            )}
          </div>
          {field(
            'script',
            'Script',
            <Textarea
              id={id('script')}
              rows={6}
              spellCheck={false}
              className="font-mono text-xs leading-5"
              placeholder={'# exit 0: passing, 1: warning, 2: failing\nexit 0'}
              {...register(path('script'))}
            />,
            'Exit code 0 is passing, 1 warning, 2 failing; the output is kept with the state',
          )}
        </div>
      );
    case 'event':
      return field(
        'event',
        'Event',
        <Select id={id('event')} {...register(path('event'))}>
          {DEVICE_EVENTS.map((e) => (
            <option key={e} value={e}>
              {EVENT_LABELS[e]}
            </option>
          ))}
        </Select>,
      );
  }
}
