import type { DeploymentStep } from '@outpost/contract/agent-protocol';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { deviceRunsTarget } from '@outpost/contract/targets';
import type { TargetOs } from '@outpost/contract/targets';
import type { Db } from '../../db/client';
import { tenantOnly } from '../../lib/scope';
import { packageLookup } from '../packages/packages.service';
import {
  countJobs,
  insertDeviceDeployments,
  insertJob,
  insertStepLog,
  listDeviceDeployments,
} from './deployments.queries';

// The demo tenant's deployment history (Demo): made once, when the demo fleet is
// online and the tenant has no job yet. Finished jobs of the past days are written as they would
// have ended (with their step logs); one job due now and one scheduled for later are real jobs
// the engine dispatches to the simulated devices.

export type DemoDevice = {
  id: number;
  deviceGuid: string;
  hostname: string | null;
  ipAddress: string | null;
  siteId: number | null;
  osType: string | null;
};

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

type DemoPackage = {
  id: number;
  name: string;
  targetOs: TargetOs;
  createdByName: string | null;
  steps: DeploymentStep[];
  /** the demo devices of the package's OS (docs/architecture.md "Package targets") */
  devices: DemoDevice[];
};

type PastPlan = { daysAgo: number; devices: number; failOn?: number; name: string };

const PAST: PastPlan[] = [
  { daysAgo: 6, devices: 8, name: 'Baseline rollout' },
  { daysAgo: 4, devices: 6, failOn: 2, name: 'Pilot ring' },
  { daysAgo: 2, devices: 5, name: 'Office refresh' },
  { daysAgo: 1, devices: 4, failOn: 1, name: 'Hotfix' },
];

function stepOutput(step: DeploymentStep, ok: boolean): { stdout: string; stderr: string; exitCode: number } {
  switch (step.stepType) {
    case 'MSI':
      return ok
        ? {
            stdout: 'msiexec /i package.msi /qn /norestart\nInstallation completed successfully.\n',
            stderr: '',
            exitCode: 0,
          }
        : {
            stdout: 'msiexec /i package.msi /qn /norestart\n',
            stderr: 'Fatal error during installation.\n',
            exitCode: 1603,
          };
    case 'REGISTRY':
      return ok
        ? { stdout: 'The operation completed successfully.\n', stderr: '', exitCode: 0 }
        : { stdout: '', stderr: 'ERROR: Access is denied.\n', exitCode: 1 };
    default:
      return ok
        ? { stdout: `${step.stepName}\nDone.\n`, stderr: '', exitCode: 0 }
        : {
            stdout: `${step.stepName}\n`,
            stderr: 'The system cannot find the file specified.\n',
            exitCode: 1,
          };
  }
}

/** The device row's error, in the agent's words: "Step 1 (name) failed: Exit code 1603". */
function failureOf(step: DeploymentStep | undefined): string {
  if (!step) {
    return messages.agentCannotDeploy;
  }
  return `Step ${step.stepOrder} (${step.stepName}) failed: Exit code ${stepOutput(step, false).exitCode}`;
}

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
    for (const [i, row] of rows.entries()) {
      const isFailed = row.status === 'failed';
      let at = row.startedAt?.getTime() ?? startedAt.getTime();
      for (const [s, step] of pkg.steps.entries()) {
        const ok = !(isFailed && s === 0);
        const out = stepOutput(step, ok);
        const duration = 4000 + ((i * 7 + s * 13) % 20) * 1000;
        await insertStepLog(tx, {
          deviceDeploymentId: row.id,
          stepOrder: step.stepOrder,
          stepName: step.stepName,
          attempt: 1,
          status: ok ? 'completed' : 'failed',
          exitCode: out.exitCode,
          startedAt: new Date(at),
          completedAt: new Date(at + duration),
          durationMs: duration,
          stdoutLog: out.stdout,
          stderrLog: out.stderr,
          errorMessage: ok ? null : `Exit code ${out.exitCode}`,
        });
        at += duration;
        if (!ok) {
          // the steps after a failing one did not run: they have no attempt, so no log
          break;
        }
      }
    }
  });
}

export async function seedDemoDeployments(
  db: Db,
  input: { tenantId: number; packageIds: number[]; devices: DemoDevice[]; now?: number },
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
  // Real jobs for the engine: one due now (the simulated devices run it), one this evening.
  const first = packages[0]!;
  const last = packages.at(-1)!;
  for (const [name, pkg, at, count] of [
    [`Deploy ${first.name}`, first, null, 3],
    [`Evening window: ${last.name}`, last, new Date(now + 3 * HOUR), 5],
  ] as const) {
    const targets = pkg.devices.slice(0, count);
    await db.transaction(async (tx) => {
      const job = await insertJob(tx, {
        tenantId,
        packageId: pkg.id,
        packageName: pkg.name,
        targetOs: pkg.targetOs,
        name,
        steps: pkg.steps,
        scheduledAt: at,
        totalDevices: targets.length,
        createdByName: pkg.createdByName,
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
  return true;
}
