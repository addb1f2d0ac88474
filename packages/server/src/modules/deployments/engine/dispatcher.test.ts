import { describe, expect, it } from 'vitest';
import type { QueueCommandInput } from '../../../live/command-queue';
import type { JobRow } from '../deployments.queries';
import { CLAIM_BATCH, createDispatcher } from './dispatcher';
import { fakeDb, job, manualClock } from '../../../../test/support/engine';

// The dispatcher: a due job's pending rows become one run_deployment command each, its devices'
// doorbells ring after the commit, and the metrics hear how late it was.

const EXPIRY_MS = 3_600_000;

function setup(due: JobRow[], rows: { id: number; deviceId: number | null }[]) {
  const clock = manualClock();
  const db = fakeDb();
  const queued: QueueCommandInput[] = [];
  const rang: number[][] = [];
  const commandsSet: { rows: { id: number; commandId: string }[]; expiresAt: Date }[] = [];
  const dispatchedJobs: number[] = [];
  const lags: number[] = [];
  const dispatcher = createDispatcher({
    db,
    clock,
    offlineExpiryMs: EXPIRY_MS,
    onDispatched: (lag) => lags.push(lag),
    commandQueue: {
      queueCommands: (_tx, inputs) => {
        queued.push(...inputs);
        return Promise.resolve(inputs.map((_, i) => `cmd-${i}`));
      },
      dispatch: (ids) => {
        rang.push([...ids]);
        return Promise.resolve();
      },
    },
    queries: {
      claimDueJobs: (_tx, limit) => Promise.resolve(due.splice(0, limit)),
      pendingDeviceDeploymentsOf: () => Promise.resolve(rows),
      setDeviceDeploymentCommands: (_tx, set, expiresAt) => {
        commandsSet.push({ rows: set, expiresAt });
        return Promise.resolve();
      },
      markJobDispatched: (_tx, id) => {
        dispatchedJobs.push(id);
        return Promise.resolve();
      },
    },
  });
  return { clock, dispatcher, queued, rang, commandsSet, dispatchedJobs, lags };
}

describe('the dispatcher', () => {
  it('queues one run_deployment per device row with a device, in one transaction, then rings', async () => {
    const steps: JobRow['steps'] = [
      {
        stepOrder: 1,
        stepName: 'echo',
        stepType: 'CMD',
        stepDetails: { command: 'echo' },
        timeoutSeconds: 60,
        retryCount: 0,
        failDeploymentOnError: true,
      },
    ];
    const t = setup(
      [job({ id: 5, steps })],
      [
        { id: 50, deviceId: 500 },
        { id: 51, deviceId: null },
        { id: 52, deviceId: 502 },
      ],
    );
    expect(await t.dispatcher.dispatchDue()).toBe(CLAIM_BATCH);
    expect(t.queued.map((q) => [q.deviceId, q.command.kind, q.expiresInMs])).toEqual([
      [500, 'run_deployment', EXPIRY_MS],
      [502, 'run_deployment', EXPIRY_MS],
    ]);
    expect(t.queued[0]!.command).toMatchObject({ jobId: 5, deviceDeploymentId: 50 });
    expect(t.commandsSet).toEqual([
      {
        rows: [
          { id: 50, commandId: 'cmd-0' },
          { id: 52, commandId: 'cmd-1' },
        ],
        expiresAt: new Date(t.clock.now() + EXPIRY_MS),
      },
    ]);
    expect(t.dispatchedJobs).toEqual([5]);
    expect(t.rang).toEqual([[500, 502]]);
  });

  it('tells how long after it was due each job went out (its schedule, else its creation)', async () => {
    const now = manualClock().now();
    const t = setup(
      [job({ id: 6, scheduledAt: new Date(now - 2000), createdAt: new Date(now - 60_000) })],
      [],
    );
    await t.dispatcher.dispatchDue();
    expect(t.lags).toEqual([2]);
  });

  it('answers 0 when nothing is due, ringing no device', async () => {
    const t = setup([], []);
    expect(await t.dispatcher.dispatchDue()).toBe(0);
    expect(t.rang).toEqual([[]]);
  });
});
