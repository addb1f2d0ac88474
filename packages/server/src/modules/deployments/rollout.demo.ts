import { rolloutMessages as messages } from '@outpost/contract/rollout-messages';
import type { RolloutPlanInput } from '@outpost/contract/rollouts';
import type { JobStatus } from '@outpost/contract/deployments';
import type { Db } from '../../db/client';
import { systemActor, writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { failureOf, writeStepLogs } from './demo-history';
import type { DemoDevice, DemoPackage } from './demo-history';
import {
  insertDeviceDeployments,
  insertJob,
  listDeviceDeployments,
  updateDeviceDeployment,
  updateJob,
} from './deployments.queries';
import { haltReason, percentWaves } from './engine/rollout-rules';
import type { PlannedWave } from './engine/rollout-rules';
import { holdRows, insertWaves, setRolloutState, updateWave } from './engine/rollout.queries';
import { jobSiteIds } from './job-sites.queries';

// The demo's halted rollout (docs/product/rollouts.md#gates): a job in three waves whose first
// wave passed its gate and soak, and whose second halted on its first failure. It is written as
// the engine would have left it: the waves' times, the device rows with their waves and holds,
// the step logs of the devices that ran, the halt's reason and its audit entry.

const MINUTE = 60 * 1000;

/** 20 % → 60 % → 100 %, the default gate with a 15-minute soak. */
export const DEMO_ROLLOUT_PLAN: RolloutPlanInput = {
  mode: 'percent',
  waves: [{ percent: 20 }, { percent: 60 }, { percent: 100 }],
  gate: { min_finished_percent: 90, min_success_percent: 95, soak_minutes: 15 },
};

/** How long after the job's start each moment came (ms). */
const AT = {
  wave1Gate: 6 * MINUTE,
  wave2Start: 21 * MINUTE,
  halt: 24 * MINUTE,
  wave2End: 28 * MINUTE,
};

type Outcome = { status: JobStatus; startedAt: Date | null; completedAt: Date | null };

/**
 * What became of each device, by its wave: wave 1 completed; in wave 2 the first device failed
 * (the halt), the devices that had taken their work meanwhile finished it (the second failed too,
 * the others completed), the last one had not taken it and is held; the third wave never started.
 */
function outcomes(waves: PlannedWave[], start: number): Map<number, Outcome> {
  const out = new Map<number, Outcome>();
  const at = (ms: number) => new Date(start + ms);
  waves[0]?.deviceIds.forEach((id, i) => {
    out.set(id, { status: 'completed', startedAt: at(i * 9000), completedAt: at(AT.wave1Gate - i * 20_000) });
  });
  const second = waves[1]?.deviceIds ?? [];
  second.forEach((id, i) => {
    const isHeld = i === second.length - 1 && i > 0;
    if (isHeld) {
      out.set(id, { status: 'pending', startedAt: null, completedAt: null });
      return;
    }
    out.set(id, {
      status: i < 2 ? 'failed' : 'completed',
      startedAt: at(AT.wave2Start + i * 9000),
      completedAt: at(i === 0 ? AT.halt : AT.wave2End - i * 30_000),
    });
  });
  return out;
}

/** Device rows of the job, written with their end state; their waves and holds come after. */
async function writeRows(
  tx: Executor,
  tenantId: number,
  jobId: number,
  pkg: DemoPackage,
  targets: DemoDevice[],
  fates: Map<number, Outcome>,
) {
  await insertDeviceDeployments(
    tx,
    targets.map((d) => {
      const fate = fates.get(d.id) ?? { status: 'pending', startedAt: null, completedAt: null };
      const isFailed = fate.status === 'failed';
      return {
        jobId,
        tenantId,
        deviceId: d.id,
        siteId: d.siteId,
        deviceGuid: d.deviceGuid,
        hostname: d.hostname,
        ipAddress: d.ipAddress,
        status: fate.status,
        startedAt: fate.startedAt,
        completedAt: fate.completedAt,
        errorMessage: isFailed ? failureOf(pkg.steps[0]) : null,
        currentStepOrder: fate.startedAt
          ? isFailed
            ? (pkg.steps[0]?.stepOrder ?? 1)
            : (pkg.steps.at(-1)?.stepOrder ?? 1)
          : null,
      };
    }),
  );
}

/** Writes the halted rollout of `pkg` on `targets` (at least 3 devices), started 90 minutes before `now`. */
export async function writeHaltedRollout(
  db: Db,
  input: { tenantId: number; pkg: DemoPackage; targets: DemoDevice[]; now: number },
): Promise<void> {
  const { tenantId, pkg, targets } = input;
  const start = input.now - 90 * MINUTE;
  const plan = DEMO_ROLLOUT_PLAN;
  await db.transaction(async (tx) => {
    const job = await insertJob(tx, {
      tenantId,
      packageId: pkg.id,
      packageName: pkg.name,
      targetOs: pkg.targetOs,
      name: `Staged rollout: ${pkg.name}`,
      description: 'Three waves with a gate between them; the second wave halted on a failure.',
      status: 'running',
      steps: pkg.steps,
      dispatchedAt: new Date(start - 4000),
      startedAt: new Date(start),
      totalDevices: targets.length,
      createdByName: pkg.createdByName,
      createdAt: new Date(start - 4000),
      rollout: plan,
      rolloutState: 'running',
      currentWave: 0,
    });
    const waves = percentWaves(
      plan,
      job.id,
      targets.map((d) => d.id),
    );
    const fates = outcomes(waves, start);
    await writeRows(tx, tenantId, job.id, pkg, targets, fates);
    await insertWaves(tx, job.id, waves, (i) => messages.waitingForWave(i));
    const rows = await listDeviceDeployments(tx, { tenantId, siteAccessType: 'all', siteIds: [] }, job.id);
    for (const row of rows.filter((r) => r.status !== 'pending' && r.hold !== null)) {
      // a finished row is held no more (docs/product/rollouts.md#device-states)
      await updateDeviceDeployment(tx, row.id, { hold: null, holdNote: null });
    }
    await writeStepLogs(tx, rows, pkg.steps, start);
    // the job's counters follow its device rows
    await updateJob(tx, job.id, {
      completedDevices: rows.filter((r) => r.status === 'completed').length,
      failedDevices: rows.filter((r) => r.status === 'failed').length,
    });
    await writeWaves(tx, job.id, start);
    await halt(tx, { ...job, tenantId }, waves[1]!, rows, fates, start);
  });
}

async function writeWaves(tx: Executor, jobId: number, start: number) {
  const at = (ms: number) => new Date(start + ms);
  await updateWave(tx, jobId, 0, {
    startedAt: at(0),
    gateMetAt: at(AT.wave1Gate),
    soakUntil: at(AT.wave2Start),
    passedAt: at(AT.wave2Start),
  });
  await updateWave(tx, jobId, 1, { startedAt: at(AT.wave2Start), haltedAt: at(AT.halt) });
}

/** The halt as the engine's gate wrote it: the reason from the wave's counts then, the hold, the audit entry. */
async function halt(
  tx: Executor,
  job: { id: number; name: string; tenantId: number },
  wave: PlannedWave,
  rows: { id: number; deviceId: number | null; status: JobStatus }[],
  fates: Map<number, Outcome>,
  start: number,
) {
  const waveRows = rows.filter((r) => r.deviceId !== null && wave.deviceIds.includes(r.deviceId));
  const counts = {
    total: waveRows.length,
    pending: waveRows.length - 1,
    running: 0,
    completed: 0,
    failed: 1,
    cancelled: 0,
  };
  const reason = haltReason(wave.index, counts, wave.gate);
  await setRolloutState(
    tx,
    job.id,
    { rolloutState: 'halted', rolloutStateReason: reason, currentWave: wave.index },
    new Date(start + AT.halt),
  );
  const untaken = waveRows.filter((r) => fates.get(r.deviceId!)?.status === 'pending').map((r) => r.id);
  const held = await holdRows(tx, untaken, 'halted', messages.heldByHalt(wave.index));
  await writeAudit(
    tx,
    systemActor({ tenantId: job.tenantId, name: 'Rollout gate', ip: null, userAgent: null }),
    {
      action: 'Halt Rollout',
      resourceType: 'deployment',
      resourceId: job.id,
      details: `${job.name}: ${reason}`,
      newValues: { rollout_state: 'halted', wave: wave.index, held_devices: held.length },
      siteIds: await jobSiteIds(tx, job.id),
    },
  );
}
