import { z } from 'zod';
import { Id, IdParam, PageParam } from './input';
import { listOf, Pagination } from './envelope';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, STEP_LOG_MAX_PAGE_SIZE, STEP_LOG_PAGE_SIZE } from './limits';
import { JOB_STATUSES, JobStatus, StepStatus } from './live';
import { StepType } from './step-catalog';
import { SCRIPT_STEP_TYPE } from './script-runs';
import { DeviceHold, Rollout, RolloutPlan, RolloutState } from './rollouts';

// Deployments (docs/product/deployments.md#deploy-dialog, #fields job, #deploy-dialog-rules; #history, #details job,
// device deployment, step log, docs/product/deployments.md#job-statuses, #calls, docs/product/packages.md#saving, #limits; #running-on-devices).

export { JOB_STATUSES, JobStatus };
export { STEP_STATUSES, StepStatus } from './live';
export type { JobStatus as DeploymentStatus } from './live';

/** Job and device-deployment statuses that are still moving. */
export const ACTIVE_JOB_STATUSES = ['pending', 'running'] as const satisfies readonly JobStatus[];
export const isJobActive = (status: JobStatus) => status === 'pending' || status === 'running';

export const JOB_NAME_MAX = 200;
export const JOB_DESCRIPTION_MAX = 2000;
/** The most devices one job may target (the dialog offers at most 100; the API allows more). */
export const MAX_DEVICES_PER_JOB = 1000;
/** A device that has not taken its work this long after the job became due fails (configurable). */
export const DEFAULT_DEPLOYMENT_OFFLINE_EXPIRY_MS = 24 * 60 * 60 * 1000;
/** A time picked for "later" may lie this far in the past (the dialog has minute precision). */
export const SCHEDULE_PAST_TOLERANCE_MS = 2 * 60 * 1000;

// ---------- create (POST /customer/deployments) ----------

// The dialog's rules are checked by the server in the product's order and words (docs/product/deployments.md#deploy-dialog-rules), so the
// body schema only fixes types and sizes; the service says what is missing.
export const DeploymentCreateBody = z.object({
  package_id: Id.optional(),
  device_ids: z
    .array(Id)
    .max(MAX_DEVICES_PER_JOB, `At most ${MAX_DEVICES_PER_JOB} devices per deployment`)
    .default([]),
  /**
   * Deploy to a device group instead of chosen devices (docs/product/device-sets.md#groups
   * "Deploying to a group"): its online members the caller may see now are the job's devices.
   */
  group_id: Id.optional(),
  job_name: z.string().max(JOB_NAME_MAX, `Job name must be ${JOB_NAME_MAX} characters or less`).default(''),
  job_description: z
    .string()
    .max(JOB_DESCRIPTION_MAX, `Description must be ${JOB_DESCRIPTION_MAX} characters or less`)
    .nullable()
    .optional(),
  /** ISO 8601 with a zone; absent or null means now */
  scheduled_at: z.iso
    .datetime({ offset: true, error: 'scheduled_at must be an ISO 8601 date and time' })
    .nullable()
    .optional(),
  /** split the job into waves with gates (docs/product/rollouts.md#waves); absent: all at once */
  rollout: RolloutPlan.optional(),
  /** devices start only inside their maintenance windows (docs/product/rollouts.md#maintenance-windows) */
  only_in_windows: z.boolean().default(false),
});
export type DeploymentCreateBody = z.input<typeof DeploymentCreateBody>;
export type DeploymentCreateInput = z.output<typeof DeploymentCreateBody>;

// ---------- jobs ----------

export const JOB_KINDS = ['package', 'agent_update', 'script'] as const;
export const JobKind = z.enum(JOB_KINDS);
export type JobKind = z.infer<typeof JobKind>;

/** The name of an agent update job and of its one pseudo step, from its target versions. */
export const agentUpdateJobName = (versions: readonly string[]) => `Agent update to ${versions.join(', ')}`;
export const agentUpdateStepName = (versions: readonly string[]) => `Update agent to ${versions.join(', ')}`;

/** docs/product/deployments.md#fields Deployment job (the list row; the detail adds deployments and steps). */
export const DeploymentJob = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  status: JobStatus,
  package_id: z.number().int().nullable(),
  package_name: z.string(),
  created_by_name: z.string().nullable(),
  created_at: z.string(),
  /** when the job becomes due; null: at once */
  scheduled_at: z.string().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  total_devices: z.number().int(),
  completed_devices: z.number().int(),
  failed_devices: z.number().int(),
  /** the device group the job was created for (its members then), or null */
  group_id: z.number().int().nullable().optional(),
  group_name: z.string().nullable().optional(),
  /** the automation policy that created the job (docs/product/device-sets.md#automation-policies), or null */
  policy_id: z.number().int().nullable().optional(),
  /** null or absent: no rollout (docs/product/rollouts.md) */
  rollout_state: RolloutState.nullable().optional(),
  only_in_windows: z.boolean().optional(),
  /** what the job does: a package's steps, or agent self-updates (docs/product/rollouts.md#agent-updates-in-waves) */
  kind: JobKind.optional(),
});
export type DeploymentJob = z.infer<typeof DeploymentJob>;

/** docs/product/deployments.md#fields, plus the device guid for 'device:{guid}' subscriptions. */
export const DeviceDeployment = z.object({
  id: z.number().int(),
  agent_id: z.number().int().nullable(),
  device_guid: z.string().nullable(),
  hostname: z.string().nullable(),
  ip_address: z.string().nullable(),
  status: JobStatus,
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  error_message: z.string().nullable(),
  /** an installer asked for a restart (exit code 3010 or 1641) */
  reboot_required: z.boolean(),
  /** the step running now (or last run), for the progress column */
  current_step_order: z.number().int().nullable(),
  current_step_name: z.string().nullable(),
  /** set while the row waits for its device to come back online (docs/architecture.md, offline devices) */
  offline_wait: z
    .object({
      /** when the device was last seen (it has been offline since) */
      offline_since: z.string().nullable(),
      /** when the row fails unless the device reconnects first */
      expires_at: z.string().nullable(),
      /** when the running step's timeout passed while the agent was away; null: not passed */
      step_timeout_passed_at: z.string().nullable(),
    })
    .nullable()
    .optional(),
  /** the wave of a rollout the device belongs to (0-based) */
  wave_index: z.number().int().nullable().optional(),
  /** why the row is held back now (docs/product/rollouts.md#device-states) */
  hold: DeviceHold.nullable().optional(),
  /** when the hold should end (a maintenance window's opening), if known */
  hold_until: z.string().nullable().optional(),
  /** the hold's reason in words ("Held: the rollout halted at wave 2 …") */
  hold_note: z.string().nullable().optional(),
});
export type DeviceDeployment = z.infer<typeof DeviceDeployment>;
export type OfflineWait = NonNullable<DeviceDeployment['offline_wait']>;

/** A step of the package as it was when the job was created (the job runs this snapshot). */
export const DeploymentStepSummary = z.object({
  step_order: z.number().int(),
  step_name: z.string(),
  /** a package step's type, or RUN_SCRIPT: a script run's one step (script-runs.ts) */
  step_type: z.union([StepType, z.literal(SCRIPT_STEP_TYPE)]),
  timeout_seconds: z.number().int(),
  retry_count: z.number().int(),
  fail_deployment_on_error: z.boolean(),
});
export type DeploymentStepSummary = z.infer<typeof DeploymentStepSummary>;

export const DeploymentJobDetail = DeploymentJob.extend({
  /** an agent_update job's target versions: its one pseudo step is "Update agent to {versions}" */
  agent_versions: z.array(z.string()).optional(),
  deployments: z.array(DeviceDeployment),
  steps: z.array(DeploymentStepSummary),
  /** how many of the caller's device rows wait for an offline device (`offline_wait` set) */
  waiting_offline_devices: z.number().int().optional(),
  /** the rollout's waves and state; null without a rollout */
  rollout: Rollout.nullable().optional(),
});
export type DeploymentJobDetail = z.infer<typeof DeploymentJobDetail>;

// ---------- devices the job waits for (POST /customer/deployments/{id}/waiting-devices/end) ----------

/** fail: the device's part failed; cancel: it was stopped (both end the row now). */
export const WAITING_DEVICE_ACTIONS = ['fail', 'cancel'] as const;
export const EndWaitingDevicesBody = z.object({
  action: z.enum(WAITING_DEVICE_ACTIONS, { error: 'action must be fail or cancel' }),
  /** the device deployments to end; omitted: every waiting one the caller may see */
  device_deployment_ids: z.array(Id).min(1).max(MAX_DEVICES_PER_JOB).optional(),
});
export type EndWaitingDevicesBody = z.infer<typeof EndWaitingDevicesBody>;
export const EndWaitingDevicesResponse = z.object({
  job: DeploymentJob,
  /** the device deployments ended */
  ended: z.array(z.number().int()),
});
export type EndWaitingDevicesResponse = z.infer<typeof EndWaitingDevicesResponse>;

// ---------- step logs (GET /customer/deployments/device-deployment/{id}/logs) ----------

/** docs/product/deployments.md#fields; one row per attempt of a step. */
export const StepLog = z.object({
  id: z.number().int(),
  step_order: z.number().int(),
  step_name: z.string(),
  attempt: z.number().int(),
  status: StepStatus,
  duration_ms: z.number().int().nullable(),
  exit_code: z.number().int().nullable(),
  started_at: z.string().nullable(),
  completed_at: z.string().nullable(),
  stdout_log: z.string(),
  /** the engine's notes: reboot required, retries, why a step did not run */
  output: z.string().nullable(),
  stderr_log: z.string(),
  error_message: z.string().nullable(),
  /** why the step did not run or waited: a false condition, a deferred reboot, a window, a halted wave */
  note: z.string().nullable().optional(),
});
export type StepLog = z.infer<typeof StepLog>;

/** A page of the attempts, in step order then attempt (each stream bounded, SECURITY.md R2-13). */
export const StepLogsQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(STEP_LOG_MAX_PAGE_SIZE).default(STEP_LOG_PAGE_SIZE),
});
export type StepLogsQuery = z.input<typeof StepLogsQuery>;

export const StepLogsResponse = z.object({
  device_deployment: DeviceDeployment,
  job_id: z.number().int(),
  logs: z.array(StepLog),
  pagination: Pagination,
});
export type StepLogsResponse = z.infer<typeof StepLogsResponse>;

// ---------- list (GET /customer/deployments) ----------

export const DeploymentListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  status: z
    .union([JobStatus, z.literal('')])
    .optional()
    .transform((v) => v || undefined),
  /** job name or package name, case-insensitive */
  search: z.string().trim().max(200).optional(),
});
export type DeploymentListQuery = z.input<typeof DeploymentListQuery>;
export type DeploymentListFilters = z.output<typeof DeploymentListQuery>;

export const DeploymentListResponse = listOf(DeploymentJob);
export type DeploymentListResponse = z.infer<typeof DeploymentListResponse>;

export const DeploymentIdParams = z.object({ id: IdParam });

// ---------- agent side: the result of run_deployment ----------

/** command_result.result of a run_deployment command. */
export const RunDeploymentResult = z.object({
  deploymentStatus: z.enum(['completed', 'failed', 'cancelled']),
  rebootRequired: z.boolean().default(false),
  /**
   * the device's maintenance window closes before this step could end: it did not start, and the
   * run stopped there (deploymentStatus 'cancelled'); the server resumes at it in the next window
   * (docs/product/rollouts.md#maintenance-windows)
   */
  waitingForWindowAtStep: z.number().int().positive().optional(),
});
export type RunDeploymentResult = z.infer<typeof RunDeploymentResult>;

/** GET /api/agent/files/{id}: an agent downloads a step's file with its device credentials. */
export const agentFilePath = (fileId: number) => `/api/agent/files/${fileId}`;

// ---------- the dialog's derived values (docs/product/deployments.md#deploy-dialog) ----------

export function defaultJobName(packageNames: readonly string[]): string {
  if (packageNames.length === 1) {
    return `Deploy ${packageNames[0]}`;
  }
  return packageNames.length > 1 ? `Deploy ${packageNames.length} packages` : '';
}

/** One job per package when several are chosen (docs/product/deployments.md#deploy-dialog). */
export const jobNameFor = (jobName: string, packageName: string, packageCount: number) =>
  packageCount > 1 ? `${jobName} - ${packageName}` : jobName;

/**
 * docs/product/deployments.md#job-statuses — completed over total, rounded; pending is what is neither. Once the job
 * has ended nothing is pending: its devices that neither completed nor failed were cancelled.
 */
export function jobProgress(
  job: Pick<DeploymentJob, 'status' | 'total_devices' | 'completed_devices' | 'failed_devices'>,
) {
  const percent = job.total_devices > 0 ? Math.round((job.completed_devices / job.total_devices) * 100) : 0;
  const rest = Math.max(0, job.total_devices - job.completed_devices - job.failed_devices);
  const hasEnded = !isJobActive(job.status);
  return { percent, pending: hasEnded ? 0 : rest, cancelled: hasEnded ? rest : 0 };
}
