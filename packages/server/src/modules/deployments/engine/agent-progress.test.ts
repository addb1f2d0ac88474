import { describe, expect, it } from 'vitest';
import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import type { JobStatus } from '@outpost/contract/live';
import type { DeviceRef } from '../../../live/device-state';
import type { JobRow, WrittenStepLog } from '../deployments.queries';
import type { ProgressWrite } from './agent-progress.queries';
import { createProgressWriter } from './agent-progress';
import type { DeviceDeploymentState } from './device-rows.queries';
import { fakeDb, job, manualClock } from '../../../../test/support/engine';

// Step progress: each message once, a first message starts the row and its job, a row changed
// meanwhile or a command started over goes through the locked pass, messages for steps the job
// does not have are refused, and every applied attempt reaches the browser.

const COMMAND = '00000000-0000-4000-8000-00000000c0de';
const device: DeviceRef = { id: 100, tenantId: 7, siteId: 4, deviceGuid: 'guid-100' };
const steps: JobRow['steps'] = [
  {
    stepOrder: 1,
    stepName: 'Install',
    stepType: 'CMD',
    stepDetails: { command: 'echo' },
    timeoutSeconds: 60,
    retryCount: 0,
    failDeploymentOnError: true,
  },
];

const msg = (seq: number, extra: Partial<StepProgressMessage> = {}): StepProgressMessage => ({
  type: 'step_progress',
  messageId: `m-${seq}`,
  commandId: COMMAND,
  seq,
  stepOrder: 1,
  attempt: 1,
  status: 'running',
  ...extra,
});

function setup(
  row: { status: JobStatus; progressSeq: number },
  opts: { changedOnce?: boolean; maskOutput?: (job: JobRow, text: string) => string } = {},
) {
  const clock = manualClock();
  const db = fakeDb();
  const state: DeviceDeploymentState = {
    id: 10,
    jobId: 1,
    deviceId: device.id,
    siteId: 4,
    commandId: COMMAND,
    deviceGuid: 'guid-100',
    errorMessage: null,
    ...row,
  };
  const reads: boolean[] = [];
  const writes: ProgressWrite[][] = [];
  const deleted: number[][] = [];
  const started: number[][] = [];
  const marked: number[] = [];
  const sent: { type: string; payload: unknown; siteId: number | null | undefined }[] = [];
  let changedOnce = opts.changedOnce ?? false;
  const writer = createProgressWriter({
    db,
    clock,
    maskOutput: opts.maskOutput,
    settler: { markUnsettled: (jobId) => marked.push(jobId) },
    portalHub: {
      send: (_tenant, _key, type, payload, siteId) => {
        sent.push({ type, payload, siteId });
        return Promise.resolve();
      },
    },
    queries: {
      deviceDeploymentsOfCommands: (_ex, pairs, { lock }) => {
        reads.push(lock);
        return Promise.resolve(pairs.some((p) => p.commandId === COMMAND) ? [state] : []);
      },
      readJobById: (_ex, id) => Promise.resolve(job({ id, steps })),
      deleteStepLogs: (_ex, ids) => {
        deleted.push(ids);
        return Promise.resolve();
      },
      startJobs: (_db, ids) => {
        started.push(ids);
        return Promise.resolve();
      },
      writeStepProgress: (_ex, ws) => {
        writes.push(ws);
        if (changedOnce) {
          changedOnce = false;
          return Promise.resolve({ rows: new Set<number>(), logs: [] });
        }
        const logs: WrittenStepLog[] = ws.flatMap((w) =>
          w.logs.map((l, i) => ({
            id: i + 1,
            deviceDeploymentId: w.id,
            stepOrder: l.stepOrder,
            stepName: l.stepName,
            attempt: l.attempt ?? 1,
            status: l.status ?? 'running',
            exitCode: l.exitCode ?? null,
            startedAt: l.startedAt ?? null,
            completedAt: l.completedAt ?? null,
            durationMs: l.durationMs ?? null,
            errorMessage: l.errorMessage ?? null,
          })),
        );
        return Promise.resolve({ rows: new Set(ws.map((w) => w.id)), logs });
      },
    },
  });
  return { clock, db, writer, reads, writes, deleted, started, marked, sent };
}

describe('the progress writer', () => {
  it('ignores messages whose command is not one of ours', async () => {
    const t = setup({ status: 'pending', progressSeq: 0 });
    expect(await t.writer.stepProgress({ device, messages: [msg(1, { commandId: 'not-a-uuid' })] })).toEqual(
      [],
    );
    expect(t.reads).toEqual([]);
  });

  it('starts a pending row and its job with its first step, and tells the browser', async () => {
    const t = setup({ status: 'pending', progressSeq: 0 });
    expect(await t.writer.stepProgress({ device, messages: [msg(1, { stdout: 'hi\n' })] })).toEqual([]);
    expect(t.reads).toEqual([false]);
    expect(t.writes[0]).toEqual([
      expect.objectContaining({
        id: 10,
        expectedSeq: 0,
        expectedStatus: 'pending',
        progressSeq: 1,
        currentStepOrder: 1,
        startedAt: new Date(t.clock.now()),
      }),
    ]);
    expect(t.started).toEqual([[1]]);
    expect(t.marked).toEqual([1]);
    expect(t.sent.map((m) => [m.type, m.siteId])).toEqual([['step_update', 4]]);
    expect(t.sent[0]!.payload).toMatchObject({
      deploymentId: 1,
      deviceDeploymentId: 10,
      deviceId: 'guid-100',
      stepName: 'Install',
      status: 'running',
      stdout: 'hi\n',
    });
  });

  it('masks output before it is stored or published (a script run’s secrets)', async () => {
    const t = setup(
      { status: 'pending', progressSeq: 0 },
      { maskOutput: (_job, text) => text.replaceAll('hunter2', '••••') },
    );
    await t.writer.stepProgress({
      device,
      messages: [msg(1, { stdout: 'key hunter2\n', stderr: 'hunter2', errorMessage: 'bad hunter2' })],
    });
    const written = JSON.stringify(t.writes);
    expect(written).not.toContain('hunter2');
    expect(written).toContain('key ••••');
    expect(JSON.stringify(t.sent)).not.toContain('hunter2');
  });

  it('refuses a step the job does not have, writing the rest', async () => {
    const t = setup({ status: 'running', progressSeq: 1 });
    const refused = await t.writer.stepProgress({ device, messages: [msg(2), msg(3, { stepOrder: 9 })] });
    expect(refused.map((r) => r.messageId)).toEqual(['m-3']);
    expect(t.writes[0]!.map((w) => w.progressSeq)).toEqual([2]);
    expect(t.started).toEqual([]);
  });

  it('writes nothing for messages the row has applied already', async () => {
    const t = setup({ status: 'running', progressSeq: 5 });
    await t.writer.stepProgress({ device, messages: [msg(4), msg(5)] });
    expect(t.writes).toEqual([[]]);
    expect(t.sent).toEqual([]);
  });

  it('a row changed since it was read is read again, locked, in a transaction', async () => {
    const t = setup({ status: 'running', progressSeq: 1 }, { changedOnce: true });
    await t.writer.stepProgress({ device, messages: [msg(2)] });
    expect(t.reads).toEqual([false, true]);
    expect(t.db.transactions).toBe(1);
    expect(t.sent).toHaveLength(1);
  });

  it('a command started over (seq 1 again) replaces its logs under the row lock', async () => {
    const t = setup({ status: 'running', progressSeq: 4 });
    await t.writer.stepProgress({ device, messages: [msg(1)] });
    expect(t.reads).toEqual([false, true]);
    expect(t.deleted).toEqual([[], [10]]);
    expect(t.writes.at(-1)!.map((w) => [w.expectedSeq, w.progressSeq])).toEqual([[4, 1]]);
  });
});
