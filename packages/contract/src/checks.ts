import { z } from 'zod';
import { Id, IdParam } from './input';

// Checks and monitoring policies (docs/product/monitoring.md#checks). A monitoring policy targets
// the organisation, a site or a group and carries checks; a device runs the union of the checks
// of every enabled policy that targets it (a check reached through two policies runs once). The
// agent evaluates the checks and reports a check's state only when it changes
// (agent-protocol.ts `checks`, `check_results`).

// Not imported from policies.ts: that module reaches live.ts, which reaches this one (alerts).
export const MONITORING_TARGET_TYPES = ['tenant', 'site', 'group'] as const;
export const MonitoringTargetType = z.enum(MONITORING_TARGET_TYPES, {
  error: 'Target must be the whole organisation, a site or a group',
});
export const MonitoringTarget = z.object({
  type: MonitoringTargetType,
  site_id: z.number().int().nullable(),
  group_id: z.number().int().nullable(),
  /** "All devices", the site's or the group's name */
  name: z.string(),
});

export const CHECK_TYPES = [
  'cpu',
  'memory',
  'disk',
  'service',
  'process',
  'port',
  'script',
  'event',
] as const;
export type CheckType = (typeof CHECK_TYPES)[number];
export const CHECK_TYPE_LABELS: Record<CheckType, string> = {
  cpu: 'CPU usage',
  memory: 'Memory usage',
  disk: 'Disk free space',
  service: 'Service running',
  process: 'Process',
  port: 'TCP port',
  script: 'Script',
  event: 'Device event',
};

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export const Severity = z.enum(SEVERITIES, { error: 'Severity must be info, warning or critical' });
export type Severity = z.infer<typeof Severity>;
export const SEVERITY_LABELS: Record<Severity, string> = {
  info: 'Info',
  warning: 'Warning',
  critical: 'Critical',
};

/** What a check's last evaluation found; a script's exit code 0/1/2 is passing/warning/failing. */
export const CHECK_STATES = ['passing', 'warning', 'failing'] as const;
export const CheckState = z.enum(CHECK_STATES);
export type CheckState = z.infer<typeof CheckState>;

export const CHECK_INTERVAL_MIN_SECONDS = 30;
export const CHECK_INTERVAL_MAX_SECONDS = 86_400;
export const CHECK_FAILURES_MAX = 10;
export const CHECKS_PER_POLICY_MAX = 50;
/** The most checks one device runs (the union of its policies). */
export const CHECKS_PER_DEVICE_MAX = 200;
export const CHECK_OUTPUT_MAX = 4000;
export const SCRIPT_MAX = 20_000;
export const SCRIPT_TIMEOUT_MAX_SECONDS = 300;
export const OFFLINE_ALERT_MIN_MINUTES = 5;
export const OFFLINE_ALERT_MAX_MINUTES = 43_200;

export const checkMessages = {
  policyNotFound: 'Monitoring policy not found',
  nameRequired: 'Name is required',
  nameTaken: 'A monitoring policy with this name already exists',
  checkNameRequired: 'Each check needs a name',
  interval: `The interval must be ${CHECK_INTERVAL_MIN_SECONDS} seconds to 24 hours`,
  failures: `Failures before alerting must be 1 to ${CHECK_FAILURES_MAX}`,
  tooManyChecks: `A policy has at most ${CHECKS_PER_POLICY_MAX} checks`,
  percent: 'The threshold must be 1 to 100 %',
  minutes: 'Minutes must be 1 to 60',
  diskThreshold: 'Set a free-space threshold in % or in GB',
  volume: 'Name the volume (a mount point such as / or a drive such as C:), or * for every volume',
  serviceName: 'Name the service (a Windows service, systemd unit or launchd job)',
  processName: 'Name the process',
  host: 'Name the host to connect to, or localhost for a port on the device',
  port: 'The port must be 1 to 65535',
  scriptRequired: 'The script is empty',
  scriptTooLong: `The script must be ${SCRIPT_MAX} characters or less`,
  scriptTimeout: `The timeout must be 1 to ${SCRIPT_TIMEOUT_MAX_SECONDS} seconds`,
  offlineMinutes: `Alert after ${OFFLINE_ALERT_MIN_MINUTES} minutes to 30 days offline`,
  checkNotFound: 'Check not found',
} as const;

const Percent = z
  .number({ error: checkMessages.percent })
  .min(1, checkMessages.percent)
  .max(100, checkMessages.percent);
const text = (max: number, message: string) =>
  z.string({ error: message }).trim().min(1, message).max(max, message);

export const SCRIPT_SHELLS = ['powershell', 'cmd', 'sh', 'bash'] as const;
export const DEVICE_EVENTS = ['reboot_pending', 'agent_crash'] as const;
export type DeviceEvent = (typeof DEVICE_EVENTS)[number];

/** Each check type's settings. */
export const CheckConfig = z.discriminatedUnion('type', [
  /** CPU above `percent` on average over `minutes` */
  z.object({
    type: z.literal('cpu'),
    percent: Percent,
    minutes: z
      .number()
      .int(checkMessages.minutes)
      .min(1, checkMessages.minutes)
      .max(60, checkMessages.minutes),
  }),
  /** memory in use above `percent` */
  z.object({ type: z.literal('memory'), percent: Percent }),
  /** free space of `volume` ('*': each volume) below `min_free_percent` or below `min_free_gb` */
  z
    .object({
      type: z.literal('disk'),
      volume: text(260, checkMessages.volume),
      min_free_percent: Percent.nullable().default(null),
      min_free_gb: z.number().positive(checkMessages.diskThreshold).max(1_000_000).nullable().default(null),
    })
    .refine((c) => c.min_free_percent !== null || c.min_free_gb !== null, {
      message: checkMessages.diskThreshold,
      path: ['min_free_percent'],
    }),
  /** the service (Windows service, systemd unit, launchd job) is not running */
  z.object({ type: z.literal('service'), service: text(256, checkMessages.serviceName) }),
  /** a process with this name is (expect running) or is not (expect stopped) running */
  z.object({
    type: z.literal('process'),
    process: text(256, checkMessages.processName),
    expect: z.enum(['running', 'stopped']).default('running'),
  }),
  /** a TCP connection to host:port (localhost: on the device) answers within timeout_ms */
  z.object({
    type: z.literal('port'),
    host: text(255, checkMessages.host),
    port: z.number().int(checkMessages.port).min(1, checkMessages.port).max(65_535, checkMessages.port),
    timeout_ms: z.number().int().min(100).max(30_000).default(3000),
  }),
  /** exit code 0 passing, 1 warning, 2 (or any other) failing; the output is kept */
  z.object({
    type: z.literal('script'),
    shell: z.enum(SCRIPT_SHELLS),
    script: z
      .string({ error: checkMessages.scriptRequired })
      .min(1, checkMessages.scriptRequired)
      .max(SCRIPT_MAX, checkMessages.scriptTooLong)
      .refine((s) => s.trim() !== '', checkMessages.scriptRequired),
    timeout_seconds: z
      .number()
      .int(checkMessages.scriptTimeout)
      .min(1, checkMessages.scriptTimeout)
      .max(SCRIPT_TIMEOUT_MAX_SECONDS, checkMessages.scriptTimeout)
      .default(60),
  }),
  /** the device's own event: a reboot is pending, or the agent restarted after a crash */
  z.object({ type: z.literal('event'), event: z.enum(DEVICE_EVENTS) }),
]);
export type CheckConfig = z.output<typeof CheckConfig>;
export type CheckConfigInput = z.input<typeof CheckConfig>;

/** One check of a policy, as written: `id` keeps an existing check (and its devices' states). */
export const CheckInput = z.object({
  id: Id.optional(),
  name: text(120, checkMessages.checkNameRequired),
  config: CheckConfig,
  interval_seconds: z
    .number({ error: checkMessages.interval })
    .int(checkMessages.interval)
    .min(CHECK_INTERVAL_MIN_SECONDS, checkMessages.interval)
    .max(CHECK_INTERVAL_MAX_SECONDS, checkMessages.interval)
    .default(60),
  /** consecutive non-passing results before the check counts as warning/failing */
  failures_before_alert: z
    .number({ error: checkMessages.failures })
    .int(checkMessages.failures)
    .min(1, checkMessages.failures)
    .max(CHECK_FAILURES_MAX, checkMessages.failures)
    .default(1),
  severity: Severity.default('warning'),
});
export type CheckInput = z.input<typeof CheckInput>;

export const Check = z.object({
  id: z.number().int(),
  policy_id: z.number().int(),
  name: z.string(),
  config: CheckConfig,
  interval_seconds: z.number().int(),
  failures_before_alert: z.number().int(),
  severity: Severity,
});
export type Check = z.infer<typeof Check>;

const PolicyName = text(120, checkMessages.nameRequired);

const OfflineMinutes = z
  .number({ error: checkMessages.offlineMinutes })
  .int(checkMessages.offlineMinutes)
  .min(OFFLINE_ALERT_MIN_MINUTES, checkMessages.offlineMinutes)
  .max(OFFLINE_ALERT_MAX_MINUTES, checkMessages.offlineMinutes)
  .nullable();
const CheckList = z.array(CheckInput).max(CHECKS_PER_POLICY_MAX, checkMessages.tooManyChecks);

/** A policy's fields without defaults: what a PUT names, and only that, replaces. */
const MonitoringPolicyFields = z.object({
  name: PolicyName,
  description: z.string().max(1000).nullable().optional(),
  target_type: MonitoringTargetType,
  site_id: Id.nullable().optional(),
  group_id: Id.nullable().optional(),
  enabled: z.boolean(),
  /** an alert opens when a device of the target stays offline this long (null: never) */
  offline_alert_minutes: OfflineMinutes,
  offline_severity: Severity,
  checks: CheckList,
});

/** POST /customer/monitoring-policies; PUT replaces what it names (checks: the whole list). */
export const MonitoringPolicyBody = MonitoringPolicyFields.extend({
  enabled: z.boolean().default(true),
  offline_alert_minutes: OfflineMinutes.default(null),
  offline_severity: Severity.default('warning'),
  checks: CheckList.default([]),
});
export type MonitoringPolicyBody = z.input<typeof MonitoringPolicyBody>;
export type MonitoringPolicyInput = z.output<typeof MonitoringPolicyBody>;
/** PUT: the fields it names (a partial of the body would fill in the defaults of those it omits). */
export const MonitoringPolicyUpdateBody = MonitoringPolicyFields.partial();
export type MonitoringPolicyUpdateInput = z.output<typeof MonitoringPolicyUpdateBody>;

export const MonitoringPolicy = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  target: MonitoringTarget,
  enabled: z.boolean(),
  offline_alert_minutes: z.number().int().nullable(),
  offline_severity: Severity,
  checks: z.array(Check),
  created_at: z.string(),
  updated_at: z.string(),
});
export type MonitoringPolicy = z.infer<typeof MonitoringPolicy>;
export const MonitoringPolicyListResponse = z.object({ data: z.array(MonitoringPolicy) });
export const MonitoringPolicyIdParams = z.object({ id: IdParam });

/** A check as one device runs it, with its last reported state (GET …/devices/:guid/checks). */
export const DeviceCheck = z.object({
  check_id: z.number().int(),
  policy_id: z.number().int(),
  policy_name: z.string(),
  name: z.string(),
  type: z.enum(CHECK_TYPES),
  /** a sentence: "CPU above 90 % for 5 minutes" */
  summary: z.string(),
  severity: Severity,
  interval_seconds: z.number().int(),
  /** null until the agent first reports it */
  state: CheckState.nullable(),
  output: z.string().nullable(),
  checked_at: z.string().nullable(),
  /** when the state last changed */
  since: z.string().nullable(),
});
export type DeviceCheck = z.infer<typeof DeviceCheck>;
export const DeviceCheckListResponse = z.object({ data: z.array(DeviceCheck) });

/** A sentence that says what a check watches. */
export function describeCheck(config: CheckConfig): string {
  switch (config.type) {
    case 'cpu':
      return `CPU above ${config.percent} % for ${config.minutes} minute${config.minutes === 1 ? '' : 's'}`;
    case 'memory':
      return `Memory in use above ${config.percent} %`;
    case 'disk': {
      const limits = [
        config.min_free_percent !== null ? `${config.min_free_percent} %` : null,
        config.min_free_gb !== null ? `${config.min_free_gb} GB` : null,
      ].filter((l) => l !== null);
      const volume = config.volume === '*' ? 'any volume' : config.volume;
      return `Free space on ${volume} below ${limits.join(' or ')}`;
    }
    case 'service':
      return `Service ${config.service} is not running`;
    case 'process':
      return config.expect === 'running'
        ? `Process ${config.process} is not running`
        : `Process ${config.process} is running`;
    case 'port':
      return `TCP ${config.host}:${config.port} does not answer`;
    case 'script':
      return `Script (${config.shell}) exits with 1 (warning) or 2 (failing)`;
    case 'event':
      return config.event === 'reboot_pending' ? 'A reboot is pending' : 'The agent restarted after a crash';
  }
}
