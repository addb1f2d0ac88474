import { z } from 'zod';
import { Id, IdParam, PageParam } from './input';
import { Severity, SEVERITIES } from './checks';

// Alerts (docs/product/monitoring.md#alerts): one open alert per condition and device, whichever
// server instance notices it. It resolves by itself when its condition clears (a check passes
// again, the device comes back), or an administrator acknowledges it (with a note) or resolves
// it. Maintenance mode silences a device's or a site's alerts for a while.

export const ALERT_CONDITIONS = [
  'check',
  'offline',
  'deployment_failed',
  'rollout_halted',
  'agent_crash',
] as const;
export const AlertCondition = z.enum(ALERT_CONDITIONS, { error: 'Unknown condition' });
export type AlertCondition = z.infer<typeof AlertCondition>;
export const ALERT_CONDITION_LABELS: Record<AlertCondition, string> = {
  check: 'Check failing',
  offline: 'Device offline',
  deployment_failed: 'Deployment failed',
  rollout_halted: 'Rollout halted',
  agent_crash: 'Agent crashed',
};

export const ALERT_STATES = ['open', 'acknowledged', 'resolved'] as const;
export const AlertState = z.enum(ALERT_STATES, { error: 'State must be open, acknowledged or resolved' });
export type AlertState = z.infer<typeof AlertState>;

export const ALERT_NOTE_MAX = 1000;
export const ALERTS_BULK_MAX = 500;
export const MAINTENANCE_MAX_HOURS = 24 * 30;

export const alertMessages = {
  alertNotFound: 'Alert not found',
  alreadyResolved: 'This alert is already resolved',
  noteTooLong: `The note must be ${ALERT_NOTE_MAX} characters or less`,
  idsRequired: 'Choose at least one alert',
  tooMany: `At most ${ALERTS_BULK_MAX} alerts at once`,
  maintenanceMinutes: `Maintenance lasts 5 minutes to ${MAINTENANCE_MAX_HOURS / 24} days`,
  maintenanceReasonTooLong: 'The reason must be 200 characters or less',
  autoResolved: 'Resolved by itself: the condition cleared',
} as const;

const Note = z.string().trim().max(ALERT_NOTE_MAX, alertMessages.noteTooLong).optional();

export const AlertDevice = z.object({ guid: z.string(), hostname: z.string() });

export const Alert = z.object({
  id: z.number().int(),
  condition: AlertCondition,
  title: z.string(),
  /** the last detail: a check's output, the failed step, why a rollout halted */
  detail: z.string().nullable(),
  severity: Severity,
  state: AlertState,
  device: AlertDevice.nullable(),
  site_id: z.number().int().nullable(),
  check_id: z.number().int().nullable(),
  /** the deployment job a deployment or rollout alert is about */
  job_id: z.number().int().nullable(),
  first_seen_at: z.string(),
  last_seen_at: z.string(),
  occurrences: z.number().int(),
  acknowledged_at: z.string().nullable(),
  acknowledged_by: z.string().nullable(),
  acknowledge_note: z.string().nullable(),
  resolved_at: z.string().nullable(),
  /** who resolved it; null when it resolved by itself */
  resolved_by: z.string().nullable(),
  resolve_note: z.string().nullable(),
  /** the alert opened while the device or its site was in maintenance: no one was told */
  silenced: z.boolean(),
});
export type Alert = z.infer<typeof Alert>;

/** GET /customer/alerts: filters; `state` defaults to the open and acknowledged ones ("active"). */
export const AlertListQuery = z.object({
  state: z.enum([...ALERT_STATES, 'active', 'all']).default('active'),
  severity: Severity.optional(),
  condition: AlertCondition.optional(),
  device: z.string().max(64).optional(),
  site_id: IdParam.optional(),
  group_id: IdParam.optional(),
  page: PageParam.optional(),
  page_size: z.coerce.number().int().min(1).max(200).default(50),
});
export type AlertListQuery = z.infer<typeof AlertListQuery>;

export const AlertListResponse = z.object({
  data: z.array(Alert),
  total: z.number().int(),
  page: z.number().int(),
  page_size: z.number().int(),
});
export type AlertListResponse = z.infer<typeof AlertListResponse>;

/** The dashboard tile and the navigation badge: the open (unacknowledged) alerts by severity. */
export const AlertCounts = z.object({
  open: z.object({ info: z.number().int(), warning: z.number().int(), critical: z.number().int() }),
  acknowledged: z.number().int(),
});
export type AlertCounts = z.infer<typeof AlertCounts>;
export const ZERO_ALERT_COUNTS: AlertCounts = { open: { info: 0, warning: 0, critical: 0 }, acknowledged: 0 };

export const AlertIdParams = z.object({ id: IdParam });
export const AlertNoteBody = z.object({ note: Note });
export const AlertBulkBody = z.object({
  ids: z.array(Id).min(1, alertMessages.idsRequired).max(ALERTS_BULK_MAX, alertMessages.tooMany),
  note: Note,
});
export const AlertBulkResult = z.object({ updated: z.number().int() });

/** PUT /customer/devices/:guid/maintenance and /customer/sites/:id/maintenance. */
export const MaintenanceBody = z.object({
  minutes: z
    .number({ error: alertMessages.maintenanceMinutes })
    .int(alertMessages.maintenanceMinutes)
    .min(5, alertMessages.maintenanceMinutes)
    .max(MAINTENANCE_MAX_HOURS * 60, alertMessages.maintenanceMinutes),
  reason: z.string().trim().max(200, alertMessages.maintenanceReasonTooLong).optional(),
});
export const Maintenance = z.object({
  until: z.string(),
  reason: z.string().nullable(),
  set_by: z.string().nullable(),
  /** 'device' or 'site': a device in a site in maintenance is silenced by its site */
  scope: z.enum(['device', 'site']),
});
export type Maintenance = z.infer<typeof Maintenance>;
export const MaintenanceResponse = z.object({ maintenance: Maintenance.nullable() });

/** The live event pushed to portal sockets of the tenant when an alert opens, changes or resolves. */
export const AlertUpdatePayload = z.object({
  alert: Alert,
  /** opened: a new alert (toasts for critical ones); changed: acknowledged, seen again; resolved */
  change: z.enum(['opened', 'changed', 'resolved']),
});
export type AlertUpdatePayload = z.infer<typeof AlertUpdatePayload>;

// ---------- routing ----------

export const ROUTE_NAME_MAX = 100;
export const routeMessages = {
  routeNotFound: 'Routing rule not found',
  channelsRequired: 'Choose at least one channel',
  severitiesRequired: 'Choose at least one severity',
  channelNotFound: 'Notification channel not found',
} as const;

/**
 * A routing rule: alerts of these severities (and conditions, when named) on devices of the
 * target go to these channels. An alert goes once to each channel any matching rule names.
 */
export const AlertRouteBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, 'Name is required')
    .max(ROUTE_NAME_MAX, `Name must be ${ROUTE_NAME_MAX} characters or less`),
  enabled: z.boolean().default(true),
  severities: z.array(Severity).min(1, routeMessages.severitiesRequired).max(SEVERITIES.length),
  /** empty: every condition */
  conditions: z.array(AlertCondition).max(ALERT_CONDITIONS.length).default([]),
  target_type: z.enum(['tenant', 'site', 'group']).default('tenant'),
  site_id: Id.nullable().optional(),
  group_id: Id.nullable().optional(),
  channel_ids: z.array(Id).min(1, routeMessages.channelsRequired).max(20),
});
export type AlertRouteBody = z.input<typeof AlertRouteBody>;
export type AlertRouteInput = z.output<typeof AlertRouteBody>;

export const AlertRoute = z.object({
  id: z.number().int(),
  name: z.string(),
  enabled: z.boolean(),
  severities: z.array(Severity),
  conditions: z.array(AlertCondition),
  target: z.object({
    type: z.enum(['tenant', 'site', 'group']),
    site_id: z.number().int().nullable(),
    group_id: z.number().int().nullable(),
    name: z.string(),
  }),
  channels: z.array(z.object({ id: z.number().int(), name: z.string() })),
});
export type AlertRoute = z.infer<typeof AlertRoute>;
export const AlertRouteListResponse = z.object({ data: z.array(AlertRoute) });
