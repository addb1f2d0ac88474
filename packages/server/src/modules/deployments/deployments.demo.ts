import type { DeploymentStep } from '@outpost/contract/agent-protocol';
import { deviceRunsTarget } from '@outpost/contract/targets';
import type { Db } from '../../db/client';
import { tenantOnly } from '../../lib/scope';
import { packageLookup } from '../packages/packages.service';
import { countJobs, insertDeviceDeployments, insertJob, listDeviceDeployments } from './deployments.queries';
import { failureOf, writeStepLogs } from './demo-history';
import { writeHaltedRollout } from './rollout.demo';
import type { DemoDevice, DemoPackage } from './demo-history';

// The demo tenant's deployment history (Demo): made once, when the demo fleet is
// online and the tenant has no job yet. Finished jobs of the past days are written as they would
// have ended (with their step logs), and so is a rollout halted at its second wave; one job due
// now, one scheduled for later and one run only inside maintenance windows are real jobs the
// engine dispatches to the simulated devices.

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

type PastPlan = { daysAgo: number; devices: number; failOn?: number; name: string };

const PAST: PastPlan[] = [
  { daysAgo: 6, devices: 8, name: 'Baseline rollout' },
  { daysAgo: 4, devices: 6, failOn: 2, name: 'Pilot ring' },
  { daysAgo: 2, devices: 5, name: 'Office refresh' },
  { daysAgo: 1, devices: 4, failOn: 1, name: 'Hotfix' },
];

async function writePastJob(
  db: Db,
  tenantId: number,
  pkg: DemoPackage,
  targets: DemoDevice[],
  plan: PastPlan,
  now: number,
) {
  const createdAt = new Date(now - plan.daysAgo * DAY - 3 * HOUR);
  const startedAt = new Date(createdAt.getTime() + 4000);
  await db.transaction(async (tx) => {
    const failedCount = plan.failOn ?? 0;
    const job = await insertJob(tx, {
      tenantId,
      packageId: pkg.id,
      packageName: pkg.name,
      targetOs: pkg.targetOs,
      name: `${plan.name}: ${pkg.name}`,
      description: null,
      status: failedCount > 0 ? 'failed' : 'completed',
      steps: pkg.steps,
      dispatchedAt: createdAt,
      startedAt,
      completedAt: new Date(startedAt.getTime() + 6 * 60 * 1000),
      totalDevices: targets.length,
      completedDevices: targets.length - failedCount,
      failedDevices: failedCount,
      createdByName: pkg.createdByName,
      createdAt,
    });
    await insertDeviceDeployments(
      tx,
      targets.map((d, i) => {
        const isFailed = i < failedCount;
        return {
          jobId: job.id,
          tenantId,
          deviceId: d.id,
          siteId: d.siteId,
          deviceGuid: d.deviceGuid,
          hostname: d.hostname,
          ipAddress: d.ipAddress,
          status: isFailed ? 'failed' : 'completed',
          startedAt: new Date(startedAt.getTime() + i * 9000),
          completedAt: new Date(startedAt.getTime() + i * 9000 + 150_000),
          errorMessage: isFailed ? failureOf(pkg.steps[0]) : null,
          currentStepOrder: isFailed ? (pkg.steps[0]?.stepOrder ?? 1) : (pkg.steps.at(-1)?.stepOrder ?? 1),
        };
      }),
    );
    const rows = await listDeviceDeployments(tx, { tenantId, siteAccessType: 'all', siteIds: [] }, job.id);
    await writeStepLogs(tx, rows, pkg.steps, startedAt.getTime());
  });
}

/** A job the engine dispatches when it is due, as the deploy dialog would have created it. */
async function writeEngineJob(
  db: Db,
  input: {
    tenantId: number;
    name: string;
    pkg: DemoPackage;
    targets: readonly DemoDevice[];
    scheduledAt: Date | null;
    onlyInWindows: boolean;
  },
) {
  const { tenantId, pkg, targets } = input;
  await db.transaction(async (tx) => {
    const job = await insertJob(tx, {
      tenantId,
      packageId: pkg.id,
      packageName: pkg.name,
      targetOs: pkg.targetOs,
      name: input.name,
      steps: pkg.steps,
      scheduledAt: input.scheduledAt,
      totalDevices: targets.length,
      createdByName: pkg.createdByName,
      onlyInWindows: input.onlyInWindows,
    });
    await insertDeviceDeployments(
      tx,
      targets.map((d) => ({
        jobId: job.id,
        tenantId,
        deviceId: d.id,
        siteId: d.siteId,
        deviceGuid: d.deviceGuid,
        hostname: d.hostname,
        ipAddress: d.ipAddress,
      })),
    );
  });
}

export async function seedDemoDeployments(
  db: Db,
  input: {
    tenantId: number;
    packageIds: number[];
    devices: DemoDevice[];
    /** the site whose devices get the job run only inside maintenance windows */
    windowSiteId?: number | null;
    now?: number;
  },
): Promise<boolean> {
  const { tenantId, devices } = input;
  const now = input.now ?? Date.now();
  if (devices.length === 0 || (await countJobs(db, tenantOnly(tenantId))) > 0) {
    return false;
  }
  const packages: DemoPackage[] = [];
  for (const id of input.packageIds) {
    const pkg = await db.transaction((tx) =>
      packageLookup.lockWithSteps(tx, { tenantId, siteAccessType: 'all', siteIds: [] }, id),
    );
    const fit = devices.filter((d) => pkg && deviceRunsTarget(d.osType, pkg.target_os));
    if (pkg && pkg.steps.length > 0 && fit.length > 0) {
      packages.push({
        id: pkg.id,
        name: pkg.name,
        targetOs: pkg.target_os,
        devices: fit,
        createdByName: pkg.created_by_name,
        steps: pkg.steps.map((s): DeploymentStep => ({
          stepOrder: s.step_order,
          stepName: s.step_name,
          stepType: s.step_type,
          stepDetails: s.step_details,
          timeoutSeconds: s.timeout_seconds,
          retryCount: s.retry_count,
          failDeploymentOnError: s.fail_deployment_on_error,
        })),
      });
    }
  }
  if (packages.length === 0) {
    return false;
  }
  for (const [i, plan] of PAST.entries()) {
    const pkg = packages[i % packages.length]!;
    const start = (i * 3) % pkg.devices.length;
    const targets = [...pkg.devices.slice(start), ...pkg.devices.slice(0, start)].slice(0, plan.devices);
    await writePastJob(db, tenantId, pkg, targets, plan, now);
  }
  // docs/product/rollouts.md: a rollout halted at its second wave, and a job that runs only
  // inside maintenance windows (the devices of the site with the demo's window wait for it)
  const staged = packages.find((p) => p.devices.length >= 3);
  if (staged) {
    const targets = staged.devices.slice(3, 13).length >= 3 ? staged.devices.slice(3, 13) : staged.devices;
    await writeHaltedRollout(db, { tenantId, pkg: staged, targets, now });
  }
  // Real jobs for the engine: one due now (the simulated devices run it), one this evening.
  const first = packages[0]!;
  const last = packages.at(-1)!;
  const windowed = first.devices
    .filter((d) => d.siteId !== null && d.siteId === input.windowSiteId)
    .slice(0, 3);
  for (const [name, pkg, targets, at, onlyInWindows] of [
    [`Deploy ${first.name}`, first, first.devices.slice(0, 3), null, false],
    [`Evening window: ${last.name}`, last, last.devices.slice(0, 5), new Date(now + 3 * HOUR), false],
    [`Inside maintenance windows: ${first.name}`, first, windowed, null, true],
  ] as const) {
    if (targets.length > 0) {
      await writeEngineJob(db, { tenantId, name, pkg, targets, scheduledAt: at, onlyInWindows });
    }
  }
  return true;
}
