import { isDeviceActionable } from '@outpost/contract/devices';
import type { DeploymentCreateBody, DeploymentJob } from '@outpost/contract/deployments';
import { jobNameFor } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { RolloutPlan } from '@outpost/contract/rollouts';
import type { RolloutFormValues } from '../../../components/rollout/rollout-form';

// The deploy dialog's rules and its create flow, free of React (docs/product/deployments.md#deploy-dialog,
// docs/product/deployments.md#deploy-dialog-rules validation, #deploy-dialog).

export type DeployTiming = 'now' | 'later';

export type DeployFormValues = {
  jobName: string;
  timing: DeployTiming;
  /** yyyy-mm-dd, local */
  date: string;
  /** HH:mm, local */
  time: string;
  description: string;
  /** the rollout section (docs/product/rollouts.md#the-rollout-section-of-the-deploy-dialog) */
  rollout?: RolloutFormValues;
};

/** The part of the dialog a rule concerns: its message is shown next to it. */
export type DeployField = 'packages' | 'devices' | 'jobName' | 'schedule';
export type DeployProblem = { field: DeployField; message: string };

/**
 * docs/product/deployments.md#deploy-dialog-rules — every rule the form breaks, in the product's order, then a schedule in the past
 * (the server refuses one; the dialog says so before sending). Empty when the form may be sent.
 */
export function deployProblems(
  form: {
    packageCount: number;
    devices: readonly { status: string }[];
    jobName: string;
    schedule?: Pick<DeployFormValues, 'timing' | 'date' | 'time'>;
    /** deploying to a group (docs/product/device-sets.md#groups): the chosen group, or null */
    group?: { groupId: number | null };
  },
  now = new Date(),
): DeployProblem[] {
  const problems: DeployProblem[] = [];
  if (form.packageCount === 0) {
    problems.push({ field: 'packages', message: messages.selectPackage });
  }
  if (form.group && form.group.groupId === null) {
    problems.push({ field: 'devices', message: SELECT_GROUP });
  }
  if (!form.group && form.devices.length === 0) {
    problems.push({ field: 'devices', message: messages.selectDevice });
  }
  if (form.jobName.trim() === '') {
    problems.push({ field: 'jobName', message: messages.jobNameRequired });
  }
  if (!form.group && !form.devices.every((d) => isDeviceActionable(d.status))) {
    problems.push({ field: 'devices', message: messages.devicesOffline });
  }
  if (form.schedule && isScheduleInPast(form.schedule, now)) {
    problems.push({ field: 'schedule', message: messages.scheduledInPast });
  }
  return problems;
}

/** docs/product/deployments.md#deploy-dialog-rules — the first rule the form breaks; null when the form may be sent. */
export function validateDeploy(form: Parameters<typeof deployProblems>[0], now = new Date()): string | null {
  return deployProblems(form, now)[0]?.message ?? null;
}

/**
 * A schedule for later is in the past when its date is before today (typed over the date
 * picker's minimum), or when its date and time are before the current minute.
 */
export function isScheduleInPast(
  values: Pick<DeployFormValues, 'timing' | 'date' | 'time'>,
  now = new Date(),
): boolean {
  if (values.timing !== 'later') {
    return false;
  }
  if (values.date && values.date < todayInput(now)) {
    return true;
  }
  const at = scheduledAt(values);
  const minute = new Date(now);
  minute.setSeconds(0, 0);
  return at !== null && at.getTime() < minute.getTime();
}

/**
 * docs/product/deployments.md#deploy-dialog-rules — a scheduled time is used only when both date and time are given (and only for
 * 'later'); it is sent as ISO 8601 with a zone. The inputs are in the browser's time zone.
 */
export function scheduledAt(values: Pick<DeployFormValues, 'timing' | 'date' | 'time'>): Date | null {
  if (values.timing !== 'later' || !values.date || !values.time) {
    return null;
  }
  const d = new Date(`${values.date}T${values.time}`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** The date input's minimum: today in the browser's time zone (docs/product/deployments.md, #deploy-dialog-rules). */
export function todayInput(now = new Date()): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

/** docs/product/deployments.md#deploy-dialog — 'Deploying to N device(s) [at date time]'. */
export function deploySummary(
  deviceCount: number,
  values: Pick<DeployFormValues, 'timing' | 'date' | 'time'>,
  groupName?: string | null,
) {
  const at = scheduledAt(values);
  const where = groupName ? `the online devices of ${groupName}` : `${deviceCount} device(s)`;
  return `Deploying to ${where}${at ? ` at ${values.date} ${values.time}` : ''}`;
}

/** The rule of a group target with no group chosen. */
export const SELECT_GROUP = 'Please select a group';

export type CreateOutcome =
  | { kind: 'success'; jobs: DeploymentJob[] }
  | { kind: 'partial'; jobs: DeploymentJob[]; failedPackageIds: number[]; message: string }
  | { kind: 'failure'; message: string };

/**
 * docs/product/deployments.md#deploy-dialog — one job per package; with several packages each is named
 * '{job name} - {package name}'. Partial and total failures carry the product's words with the
 * first error (the server's text, else 'Failed to create deployment job').
 */
export async function createJobs(
  create: (body: DeploymentCreateBody) => Promise<DeploymentJob>,
  packages: readonly { id: number; name: string }[],
  common: {
    deviceIds: number[];
    /** a device group instead of devices (docs/product/device-sets.md#groups) */
    groupId?: number | null;
    jobName: string;
    description: string;
    scheduledAt: Date | null;
    /** waves and gates (docs/product/rollouts.md#waves); absent: all at once */
    rollout?: RolloutPlan;
    /** devices start only inside their maintenance windows */
    onlyInWindows?: boolean;
  },
): Promise<CreateOutcome> {
  const jobs: DeploymentJob[] = [];
  const failed: { id: number; error: string }[] = [];
  const jobName = common.jobName.trim();
  const description = common.description.trim();
  for (const pkg of packages) {
    try {
      jobs.push(
        await create({
          package_id: pkg.id,
          ...(common.groupId != null ? { group_id: common.groupId } : { device_ids: common.deviceIds }),
          job_name: jobNameFor(jobName, pkg.name, packages.length),
          job_description: description || null,
          scheduled_at: common.scheduledAt ? common.scheduledAt.toISOString() : null,
          ...(common.rollout && { rollout: common.rollout }),
          ...(common.onlyInWindows && { only_in_windows: true }),
        }),
      );
    } catch (err) {
      failed.push({
        id: pkg.id,
        error: err instanceof Error && err.message ? err.message : messages.createFailed,
      });
    }
  }
  const first = failed[0];
  if (!first) {
    return { kind: 'success', jobs };
  }
  if (jobs.length === 0) {
    return { kind: 'failure', message: messages.totalFailure(first.error) };
  }
  return {
    kind: 'partial',
    jobs,
    failedPackageIds: failed.map((f) => f.id),
    message: messages.partialFailure(jobs.length, failed.length, first.error),
  };
}
