import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../../db/client';
import type { Executor } from '../../../lib/db';
import type { AgentReports } from '../../../live/agent-reports';
import type { CommandQueue } from '../../../live/command-queue';
import type { PortalHub } from '../../../live/portal-socket';
import type { JobRow } from '../deployments.queries';
import { createProgressWriter } from './agent-progress';
import type { OutputMask } from './agent-progress';
import { createResultWriter } from './agent-results';
import { systemClock } from './clock';
import type { Clock } from './clock';
import { createDispatcher } from './dispatcher';
import { createJobPublisher } from './job-updates';
import type { DeviceRowUpdate } from './job-updates';
import { createRollouts } from './rollout';
import type { OnRolloutHalted, Rollouts } from './rollout';
import { createScheduler } from './scheduler';
import { createSettler } from './settler';
import { createStepOutputs } from './step-output';
import type { StepOutputStore } from './step-output';
import { createSweeper } from './sweeper';
import { createWindowGate } from './windows';
import type { WindowsFor } from './windows';

// The deployment engine (docs/architecture.md, Engine), one per server instance, wired from its
// parts:
//  - the scheduler (scheduler.ts) runs the dispatcher (dispatcher.ts: due jobs become one
//    run_deployment command per device on the command queue) and the sweeper (sweeper.ts);
//  - agents' reports come in through the command queue (the AgentReports port): progress
//    (agent-progress.ts) and results (agent-results.ts) update step logs and device rows, each
//    message once, each in a statement that touches its device rows alone;
//  - the settler (settler.ts) recomputes the changed jobs' counters and status from their device
//    rows and publishes them (job-updates.ts).
// Lock order everywhere: the job row, then its device rows (agent messages take no job lock).

export type DeploymentEngineOptions = {
  offlineExpiryMs: number;
  schedulerIntervalMs: number;
};

export type DeploymentEngine = AgentReports & {
  /** look for due work now (after a job was created), without waiting for the timer */
  kick(): void;
  /** one scheduler pass: dispatch due jobs, then the sweep; resolves when done */
  tick(): Promise<void>;
  start(): void;
  stop(): Promise<void>;
  /** publish what changed in a job (the service calls it after its own transactions) */
  publishJob(job: JobRow, device?: DeviceRowUpdate): Promise<void>;
  /** recompute a locked job's counters and status from its device rows */
  settleJob(tx: Executor, jobId: number): Promise<{ before: JobRow; after: JobRow }>;
  /** the rollout part (docs/product/rollouts.md): the rollout actions drive it */
  rollouts: Pick<Rollouts, 'evaluateLocked' | 'holdUntaken' | 'release' | 'advance' | 'announce'>;
};

export function createDeploymentEngine(deps: {
  db: Db;
  commandQueue: Pick<
    CommandQueue,
    'queueCommands' | 'dispatch' | 'finishCommand' | 'findCommand' | 'withdrawCommands'
  >;
  portalHub: Pick<PortalHub, 'send'>;
  log: FastifyBaseLogger;
  options: DeploymentEngineOptions;
  /** told, per dispatched job, how long after it became due it was dispatched (the metrics) */
  onDispatched?: (lagSeconds: number) => void;
  clock?: Clock;
  /** writes a device's custom field from a step's output (docs/product/device-sets.md#custom-fields) */
  storeStepOutput?: StepOutputStore;
  /** a script run's secrets masked in its output before it is stored or published (script-secrets.ts) */
  maskOutput?: OutputMask;
  /** the devices' maintenance windows (modules/maintenance-windows), for jobs run only inside them */
  windowsFor?: WindowsFor;
  /** told of each automatic rollout halt in its transaction (the alerts) */
  onRolloutHalted?: OnRolloutHalted;
  /** told of each job that has just failed, in its settle's transaction (the alerts) */
  onJobFailed?: (tx: Executor, job: JobRow) => Promise<void>;
}): DeploymentEngine {
  const { db, commandQueue, portalHub, log, options } = deps;
  const clock = deps.clock ?? systemClock;
  const expiryHours = Math.max(1, Math.round(options.offlineExpiryMs / 3_600_000));
  const publishJob = createJobPublisher(portalHub);
  const settler = createSettler({
    db,
    publishJob,
    log,
    clock,
    // rollouts is defined below; a job settles only once the engine runs
    onSettled: (job) => rollouts.afterSettle(job),
    onJobFailed: deps.onJobFailed,
  });
  const windows = deps.windowsFor
    ? createWindowGate({
        db,
        commandQueue,
        windowsFor: deps.windowsFor,
        clock,
        offlineExpiryMs: options.offlineExpiryMs,
        markUnsettled: (jobId, dd) => settler.markUnsettled(jobId, dd),
      })
    : undefined;
  const rollouts = createRollouts({
    db,
    commandQueue,
    publishJob,
    offlineExpiryMs: options.offlineExpiryMs,
    clock,
    log,
    windows,
    onHalted: deps.onRolloutHalted,
  });
  const results = createResultWriter({ db, settler, expiryHours, windows });
  const storeOutputs = createStepOutputs({ db, store: deps.storeStepOutput, log });
  const progress = createProgressWriter({
    db,
    settler,
    portalHub,
    clock,
    storeOutputs,
    maskOutput: deps.maskOutput,
  });
  const dispatcher = createDispatcher({
    db,
    commandQueue,
    offlineExpiryMs: options.offlineExpiryMs,
    clock,
    onDispatched: deps.onDispatched,
    windows,
  });
  const sweeper = createSweeper({
    db,
    commandQueue,
    settler,
    publishJob,
    applyResult: (result) => results.applyResult(result),
    expiryHours,
    clock,
  });
  const scheduler = createScheduler({
    dispatcher,
    sweeper,
    log,
    intervalMs: options.schedulerIntervalMs,
    clock,
    rollouts,
    releaseWindows: windows ? () => windows.release() : undefined,
  });

  return {
    commandResult: (event) => results.commandResult(event),
    stepProgress: (event) => progress.stepProgress(event),
    kick: () => scheduler.kick(),
    tick: () => scheduler.tick(),
    start: () => scheduler.start(),
    async stop() {
      settler.halt();
      await scheduler.stop();
      await settler.drain();
    },
    publishJob,
    settleJob: (tx, jobId) => settler.settleJob(tx, jobId),
    rollouts,
  };
}
