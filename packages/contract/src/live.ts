import { z } from 'zod';
import { DeviceHold, RolloutState } from './rollouts';
import { INT4_MAX, refineInput } from './input';
import { DeviceStatus } from './devices';
import { AlertUpdatePayload } from './alerts';

// The portal socket (docs/product/live-updates.md#live-lists and #channels).
// Endpoint /api/ws?tenantId&userId&token. Every message is {type, payload}.
//
// client → server: subscribe {subscriptionKey}, unsubscribe {subscriptionKey}, ping
// server → client: the PortalEvents below (typed from this one map), plus subscribed,
//                  unsubscribed, pong and error.

export const JOB_STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'] as const;
export const JobStatus = z.enum(JOB_STATUSES);
export type JobStatus = z.infer<typeof JobStatus>;
/** A step attempt's status: a job's, or 'skipped' (a false condition, docs/product/rollouts.md#step-conditions). */
export const STEP_STATUSES = [...JOB_STATUSES, 'skipped'] as const;
export const StepStatus = z.enum(STEP_STATUSES);
export type StepStatus = z.infer<typeof StepStatus>;

/** device_update: deviceId is the device_guid (the key of 'device:{device_guid}'). */
export const DeviceUpdatePayload = z.object({
  deviceId: z.string(),
  /** the numeric device id, for lists keyed by id */
  id: z.number().int(),
  status: DeviceStatus,
  lastSeen: z.string().nullable(),
  hostname: z.string().nullable().optional(),
  ipAddress: z.string().nullable().optional(),
  agentVersion: z.string().nullable().optional(),
  lastInventoryUpdate: z.string().nullable().optional(),
  /** which inventory parts changed, when the update is about inventory */
  inventory: z.array(z.enum(['hardware', 'network', 'software', 'services'])).optional(),
});
export type DeviceUpdatePayload = z.infer<typeof DeviceUpdatePayload>;

/** deployment_update: deploymentId plus the changed fields (docs/product/live-updates.md#channels). */
export const DeploymentUpdatePayload = z.object({
  deploymentId: z.number().int(),
  status: JobStatus.optional(),
  jobName: z.string().optional(),
  total_devices: z.number().int().optional(),
  completed_devices: z.number().int().optional(),
  failed_devices: z.number().int().optional(),
  /** set when the update is about one device's deployment within the job */
  deviceDeploymentId: z.number().int().optional(),
  deviceId: z.string().optional(),
  deviceStatus: JobStatus.optional(),
  errorMessage: z.string().nullable().optional(),
  started_at: z.string().nullable().optional(),
  completed_at: z.string().nullable().optional(),
  /** a rollout's state changed (docs/product/rollouts.md): refetch the waves */
  rollout_state: RolloutState.nullable().optional(),
  current_wave: z.number().int().optional(),
  rollout_reason: z.string().nullable().optional(),
  /** the device row's hold changed (docs/product/rollouts.md#device-states) */
  deviceHold: DeviceHold.nullable().optional(),
});
export type DeploymentUpdatePayload = z.infer<typeof DeploymentUpdatePayload>;

/** step_update: stepOrder plus the changed fields; stepName and status per docs/product/live-updates.md#channels. */
export const StepUpdatePayload = z.object({
  deploymentId: z.number().int(),
  deviceDeploymentId: z.number().int().optional(),
  deviceId: z.string().optional(),
  stepOrder: z.number().int(),
  stepName: z.string().optional(),
  status: StepStatus,
  attempt: z.number().int().optional(),
  exitCode: z.number().int().nullable().optional(),
  errorMessage: z.string().nullable().optional(),
  durationMs: z.number().int().nullable().optional(),
  startedAt: z.string().nullable().optional(),
  completedAt: z.string().nullable().optional(),
  /** output printed since the previous step_update of this attempt (append to what is shown) */
  stdout: z.string().optional(),
  stderr: z.string().optional(),
  /** why the step did not run (a skipped step) */
  note: z.string().nullable().optional(),
});
export type StepUpdatePayload = z.infer<typeof StepUpdatePayload>;

export const CONNECTION_STATUSES = ['connected'] as const;
export const ConnectionStatusPayload = z.object({
  status: z.enum(CONNECTION_STATUSES),
  serverTime: z.string(),
  userId: z.number().int(),
  tenantId: z.number().int(),
});
export type ConnectionStatusPayload = z.infer<typeof ConnectionStatusPayload>;

/** The one event map every live message is typed against (STYLE: send<T extends keyof PortalEvents>). */
export const PortalEventSchemas = {
  device_update: DeviceUpdatePayload,
  deployment_update: DeploymentUpdatePayload,
  step_update: StepUpdatePayload,
  connection_status: ConnectionStatusPayload,
  /** on the `alerts` key: an alert opened, changed or resolved (docs/product/monitoring.md#alerts) */
  alert_update: AlertUpdatePayload,
} as const;
export type PortalEvents = {
  [K in keyof typeof PortalEventSchemas]: z.infer<(typeof PortalEventSchemas)[K]>;
};
export type PortalEventType = keyof PortalEvents;
export type PortalEvent<T extends PortalEventType = PortalEventType> = {
  [K in T]: { type: K; payload: PortalEvents[K] };
}[T];

// ---------- subscription keys ----------

export const SUBSCRIPTION_KINDS = ['device', 'deployment', 'alerts'] as const;
export type SubscriptionKind = (typeof SUBSCRIPTION_KINDS)[number];
/** `alerts`: the tenant's alerts, each delivered only to those who may see its site */
export type SubscriptionKey = `device:${string}` | `deployment:${number}` | 'alerts';
export const ALERTS_KEY: SubscriptionKey = 'alerts';
export const MAX_SUBSCRIPTIONS_PER_SOCKET = 2000;

export const deviceKey = (deviceGuid: string): SubscriptionKey => `device:${deviceGuid}`;
export const deploymentKey = (deploymentId: number): SubscriptionKey => `deployment:${deploymentId}`;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type ParsedSubscriptionKey =
  { kind: 'device'; deviceGuid: string } | { kind: 'deployment'; id: number } | { kind: 'alerts' };

export function parseSubscriptionKey(key: string): ParsedSubscriptionKey | null {
  if (key === ALERTS_KEY) {
    return { kind: 'alerts' };
  }
  const sep = key.indexOf(':');
  if (sep < 0) {
    return null;
  }
  const kind = key.slice(0, sep);
  const rest = key.slice(sep + 1);
  if (kind === 'device' && GUID.test(rest)) {
    return { kind, deviceGuid: rest.toLowerCase() };
  }
  // Ids are PostgreSQL integers: a larger number can name nothing (and the database would refuse it).
  if (kind === 'deployment' && /^[1-9][0-9]{0,9}$/.test(rest) && Number(rest) <= INT4_MAX) {
    return { kind, id: Number(rest) };
  }
  return null;
}

// ---------- client → server ----------

export const SubscriptionPayload = z.object({ subscriptionKey: z.string().min(1).max(200) });
export const PortalClientMessage = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('subscribe'), payload: SubscriptionPayload }),
    z.object({ type: z.literal('unsubscribe'), payload: SubscriptionPayload }),
    z.object({ type: z.literal('ping'), payload: z.unknown().optional() }),
  ])
  .superRefine(refineInput); // no NUL characters, bounded nesting: as every HTTP request
export type PortalClientMessage = z.infer<typeof PortalClientMessage>;

// ---------- server → client (besides PortalEvents) ----------

export type PortalErrorCode =
  'invalid_message' | 'invalid_subscription_key' | 'subscription_denied' | 'too_many_subscriptions';

export type PortalControlMessages = {
  subscribed: { subscriptionKey: string };
  unsubscribed: { subscriptionKey: string };
  pong: { serverTime: string };
  error: { code: PortalErrorCode; message: string; subscriptionKey?: string };
};

export type PortalServerMessage =
  | PortalEvent
  | {
      [K in keyof PortalControlMessages]: { type: K; payload: PortalControlMessages[K] };
    }[keyof PortalControlMessages];

/** Close codes of the portal socket; the reason carries the words below. */
export const PORTAL_CLOSE = {
  missingParameters: 4400,
  invalidToken: 4401,
  mismatch: 4403,
  serverShutdown: 1001,
  /** more messages waiting than a client needs (a flood): RFC 6455 1008 */
  policyViolation: 1008,
} as const;

/**
 * Messages (and their bytes) one portal socket may have waiting to be handled. The web client
 * re-subscribes every key at once after a reconnect, so the count bound leaves room for twice
 * the subscription limit; a client past either bound is flooding and is closed with 1008.
 */
export const PORTAL_MAX_PENDING_MESSAGES = 2 * MAX_SUBSCRIPTIONS_PER_SOCKET + 100;
export const PORTAL_MAX_PENDING_BYTES = 4 * 1024 * 1024;
