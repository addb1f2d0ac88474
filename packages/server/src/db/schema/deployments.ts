import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { AgentUpdateTargets, DeploymentStep } from '@outpost/contract/agent-protocol';
import type { JobKind } from '@outpost/contract/deployments';
import type { ScriptRunSpec } from '@outpost/contract/scripts';
import type { JobStatus, StepStatus } from '@outpost/contract/live';
import type { TargetOs } from '@outpost/contract/targets';
import type { DeviceHold, RolloutPlanInput, RolloutState } from '@outpost/contract/rollouts';
import { tenants } from './tenants';
import { users } from './users';
import { devices } from './devices';
import { deploymentPackages } from './packages';
import { files } from './files';
import { policies } from './policies';
import { deviceGroups } from './device-groups';

// docs/product/deployments.md#running-on-devices, #fields, Device deployment, Step log.

/**
 * A job: one package deployed to a set of devices, now or at `scheduled_at`. The package's steps
 * are copied into `steps` when the job is created, so editing the package later changes nothing
 * that is already planned. `dispatched_at` is set when a scheduler claimed the due job and queued
 * its devices' work; the counters follow the device rows in the same transaction.
 */
export const deploymentJobs = pgTable(
  'deployment_jobs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    packageId: integer('package_id').references(() => deploymentPackages.id, { onDelete: 'set null' }),
    packageName: text('package_name').notNull(),
    /** the package's version and last change when the job took its copy (SECURITY.md R2-5) */
    packageVersion: text('package_version'),
    packageUpdatedAt: timestamp('package_updated_at', { withTimezone: true }),
    /** the package's target OS when the job took its copy; sent to the agents (docs/architecture.md) */
    targetOs: text('target_os').$type<TargetOs>().notNull().default('windows'),
    name: text().notNull(),
    description: text(),
    status: text().$type<JobStatus>().notNull().default('pending'),
    steps: jsonb().$type<DeploymentStep[]>().notNull(),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true }),
    dispatchedAt: timestamp('dispatched_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    totalDevices: integer('total_devices').notNull().default(0),
    completedDevices: integer('completed_devices').notNull().default(0),
    failedDevices: integer('failed_devices').notNull().default(0),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    /**
     * The device group the job was created for (docs/product/device-sets.md#groups "Deploying to
     * a group"): its members in the creator's scope at creation are the job's devices; devices
     * that join later are not. Null for a job of chosen devices or once the group is deleted.
     */
    groupId: integer('group_id').references(() => deviceGroups.id, { onDelete: 'set null' }),
    groupName: text('group_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    /** the automation policy that created the job (docs/product/device-sets.md#automation-policies) */
    policyId: integer('policy_id').references(() => policies.id, { onDelete: 'set null' }),
    /** the rollout plan (docs/product/rollouts.md#waves); null: every device at once */
    rollout: jsonb().$type<RolloutPlanInput>(),
    rolloutState: text('rollout_state').$type<RolloutState>(),
    /** the wave now dispatched (0-based) */
    currentWave: integer('current_wave'),
    /** why the rollout halted, or who paused or aborted it */
    rolloutStateReason: text('rollout_state_reason'),
    rolloutStateAt: timestamp('rollout_state_at', { withTimezone: true }),
    /** devices start only inside their maintenance windows (docs/product/rollouts.md#maintenance-windows) */
    onlyInWindows: boolean('only_in_windows').notNull().default(false),
    /** a package's steps, or agent self-updates (docs/product/rollouts.md#agent-updates-in-waves) */
    kind: text().$type<JobKind>().notNull().default('package'),
    /** an agent_update job's targets: per OS type, the version and its executables */
    agentUpdate: jsonb('agent_update').$type<AgentUpdateTargets>(),
    /** a script job's run (docs/product/scripts.md#runs): the script's version, parameters, secrets sealed */
    scriptRun: jsonb('script_run').$type<ScriptRunSpec>(),
  },
  (t) => [
    index('deployment_jobs_policy_idx').on(t.policyId, t.createdAt),
    index('deployment_jobs_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('deployment_jobs_tenant_status_idx').on(t.tenantId, t.status),
    // a package's jobs, newest first (the package's last deployment)
    index('deployment_jobs_package_idx').on(t.packageId, t.createdAt),
    // the scheduler's claim: pending jobs not yet dispatched, by due time
    index('deployment_jobs_due_idx')
      .on(t.scheduledAt)
      .where(sql`${t.status} = 'pending' and ${t.dispatchedAt} is null`),
  ],
);

/** One device's part of a job. `command_id` is its run_deployment command once dispatched. */
export const deviceDeployments = pgTable(
  'device_deployments',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    jobId: integer('job_id')
      .notNull()
      .references(() => deploymentJobs.id, { onDelete: 'cascade' }),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    /** null once the device is removed; the hostname stays for the history */
    deviceId: integer('device_id').references(() => devices.id, { onDelete: 'set null' }),
    /** the device's site when the job was created (site-limited users see their sites' rows) */
    siteId: integer('site_id'),
    deviceGuid: uuid('device_guid'),
    hostname: text(),
    ipAddress: text('ip_address'),
    status: text().$type<JobStatus>().notNull().default('pending'),
    commandId: uuid('command_id'),
    /** the device must take its work before this time, or the deployment fails */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    errorMessage: text('error_message'),
    rebootRequired: boolean('reboot_required').notNull().default(false),
    currentStepOrder: integer('current_step_order'),
    /** the last step_progress seq applied: a resent message is applied once */
    progressSeq: integer('progress_seq').notNull().default(0),
    /** the wave the device belongs to (0-based), or null without a rollout */
    waveIndex: integer('wave_index'),
    /** why a pending or running row is held back (docs/product/rollouts.md#device-states) */
    hold: text().$type<DeviceHold>(),
    /** when the hold is expected to end (a window's opening), if known */
    holdUntil: timestamp('hold_until', { withTimezone: true }),
    /** the hold's reason in words, shown in the device's step log and the job's timeline */
    holdNote: text('hold_note'),
    /** the step the next dispatch starts at (after a window closed before a step) */
    resumeStepOrder: integer('resume_step_order'),
  },
  (t) => [
    index('device_deployments_job_idx').on(t.jobId),
    uniqueIndex('device_deployments_command_uq').on(t.commandId),
    index('device_deployments_device_idx').on(t.deviceId),
    index('device_deployments_job_wave_idx').on(t.jobId, t.waveIndex),
    index('device_deployments_active_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.status} in ('pending', 'running')`),
  ],
);

/** One attempt of one step on one device (docs/product/deployments.md#fields). */
export const deploymentStepLogs = pgTable(
  'deployment_step_logs',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    deviceDeploymentId: integer('device_deployment_id')
      .notNull()
      .references(() => deviceDeployments.id, { onDelete: 'cascade' }),
    stepOrder: integer('step_order').notNull(),
    stepName: text('step_name').notNull(),
    attempt: integer().notNull().default(1),
    status: text().$type<StepStatus>().notNull().default('running'),
    /** a Windows exit code is a DWORD (up to 4294967295), beyond integer */
    exitCode: bigint('exit_code', { mode: 'number' }),
    startedAt: timestamp('started_at', { withTimezone: true }),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    stdoutLog: text('stdout_log').notNull().default(''),
    stderrLog: text('stderr_log').notNull().default(''),
    /** UTF-8 bytes cut from the middle of each stream to keep it within its limit (SECURITY.md R2-13) */
    stdoutCutBytes: bigint('stdout_cut_bytes', { mode: 'number' }).notNull().default(0),
    stderrCutBytes: bigint('stderr_cut_bytes', { mode: 'number' }).notNull().default(0),
    output: text(),
    errorMessage: text('error_message'),
    /** why the step did not run or waited: a false condition, a deferred reboot, a window (docs/product/rollouts.md#step-log) */
    note: text(),
  },
  (t) => [uniqueIndex('deployment_step_logs_attempt_uq').on(t.deviceDeploymentId, t.stepOrder, t.attempt)],
);

/** The uploaded files a job's steps use: an agent may download only these, for its own jobs. */
export const deploymentJobFiles = pgTable(
  'deployment_job_files',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => deploymentJobs.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.jobId, t.fileId] }), index('deployment_job_files_file_idx').on(t.fileId)],
);

/**
 * One wave of a job's rollout (docs/product/rollouts.md#waves): its gate and its timing. Written
 * only by the engine's rollout part; the device rows carry `wave_index`.
 */
export const deploymentWaves = pgTable(
  'deployment_waves',
  {
    jobId: integer('job_id')
      .notNull()
      .references(() => deploymentJobs.id, { onDelete: 'cascade' }),
    waveIndex: integer('wave_index').notNull(),
    name: text().notNull(),
    groupId: integer('group_id').references(() => deviceGroups.id, { onDelete: 'set null' }),
    percent: integer(),
    minFinishedPercent: integer('min_finished_percent').notNull(),
    minSuccessPercent: integer('min_success_percent').notNull(),
    soakMinutes: integer('soak_minutes').notNull().default(0),
    totalDevices: integer('total_devices').notNull().default(0),
    startedAt: timestamp('started_at', { withTimezone: true }),
    gateMetAt: timestamp('gate_met_at', { withTimezone: true }),
    soakUntil: timestamp('soak_until', { withTimezone: true }),
    passedAt: timestamp('passed_at', { withTimezone: true }),
    haltedAt: timestamp('halted_at', { withTimezone: true }),
    gateSkippedReason: text('gate_skipped_reason'),
    gateSkippedBy: integer('gate_skipped_by').references(() => users.id, { onDelete: 'set null' }),
    gateSkippedByName: text('gate_skipped_by_name'),
    /** the wave's failed devices when it was resumed after a halt: it halts again only on more */
    resumedFailedDevices: integer('resumed_failed_devices').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.jobId, t.waveIndex] }),
    // the scheduler's pass: soaks that ended and whose next wave has not started
    index('deployment_waves_soak_idx')
      .on(t.soakUntil)
      .where(sql`${t.passedAt} is null and ${t.soakUntil} is not null`),
  ],
);
