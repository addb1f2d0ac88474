import { describe, expect, it } from 'vitest';
import { RecordingStepExecutor } from '../actions/step-executor';
import type { RecordingStepOptions } from '../actions/step-executor';
import { command, step } from '../../test/support/steps';
import { NO_USER_NOTE } from './message';
import { deferralNote, restartNote } from './reboot';
import { runDeployment } from './run-deployment';
import type { StepProgress } from './run-deployment';
import { waitedLine } from './wait';

// docs/product/rollouts.md#reboot-message-and-wait-steps — WAIT, MESSAGE and REBOOT through the
// step loop with a recording step executor: nothing here touches the host.

const USER = { sessionId: 's1', userName: 'alice' };

function run(
  steps: ReturnType<typeof step>[],
  options: RecordingStepOptions & { timeScale?: number; signal?: AbortSignal } = {},
) {
  const executor = new RecordingStepExecutor(options);
  const reports: StepProgress[] = [];
  const done = runDeployment(command(steps), {
    report: (p) => reports.push(p),
    fetchFile: () => Promise.reject(new Error('no files')),
    download: () => Promise.reject(new Error('no downloads')),
    platform: 'linux',
    device: { executor, timeScale: options.timeScale ?? 0.001 },
    signal: options.signal,
  });
  return { executor, reports, done };
}

const finalOf = (reports: StepProgress[], stepOrder: number) =>
  reports.find((r) => r.stepOrder === stepOrder && r.status !== 'running');

describe('WAIT', () => {
  it('waits the seconds and says so', async () => {
    const { done, reports } = await Promise.resolve(run([step(1, 'WAIT', { seconds: 2 })]));
    const result = await done;
    expect(result.status).toBe('completed');
    expect(result.steps[0]!.attempts[0]!.stdout).toContain(waitedLine(2));
    expect(finalOf(reports, 1)?.status).toBe('completed');
  });

  it('ends when the deployment is cancelled', async () => {
    const controller = new AbortController();
    const { done } = run([step(1, 'WAIT', { seconds: 86_400 }), step(2, 'WAIT', { seconds: 1 })], {
      timeScale: 1,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const result = await done;
    expect(result.status).toBe('cancelled');
    expect(result.steps.map((s) => s.status)).toEqual(['cancelled', 'cancelled']);
  });
});

describe('MESSAGE', () => {
  const message = step(1, 'MESSAGE', { title: 'IT', message: 'Save your work', timeout_seconds: 30 });

  it('shows the message to the logged-in user', async () => {
    const { done, executor, reports } = run([message], { sessions: () => [USER] });
    expect((await done).status).toBe('completed');
    expect(executor.calls).toEqual([
      { kind: 'message', notice: { title: 'IT', message: 'Save your work', timeoutSeconds: 30 } },
    ]);
    expect(finalOf(reports, 1)?.note).toBeUndefined();
  });

  it('completes with a note when no one is logged in, showing nothing', async () => {
    const { done, executor, reports } = run([message]);
    const result = await done;
    expect(result.status).toBe('completed');
    expect(executor.calls).toEqual([]);
    expect(finalOf(reports, 1)).toMatchObject({ status: 'completed', note: NO_USER_NOTE });
  });
});

describe('REBOOT', () => {
  it('stops the deployment after the step, asking for the restart with its delay and message', async () => {
    const { done, reports } = run([
      step(1, 'REBOOT', { delay_seconds: 30, message: 'Bye' }),
      step(2, 'WAIT', { seconds: 1 }),
    ]);
    const result = await done;
    expect(result.restart).toEqual({ stepOrder: 1, attempt: 1, delaySeconds: 30, message: 'Bye' });
    expect(result.steps.map((s) => s.stepOrder)).toEqual([1]);
    expect(finalOf(reports, 1)).toMatchObject({ status: 'completed', note: restartNote(30) });
    expect(reports.some((r) => r.stepOrder === 2)).toBe(false);
  });

  it('lets a logged-in user defer as often as allowed, each deferral a note and a wait', async () => {
    const { done, executor, reports } = run([step(1, 'REBOOT', { max_deferrals: 2, deferral_minutes: 1 })], {
      sessions: () => [USER],
      answers: ['later', 'later', 'later'],
    });
    const result = await done;
    expect(result.restart?.delaySeconds).toBe(60);
    // asked twice (both deferred), then no more asking: the restart goes ahead
    expect(executor.calls.filter((c) => c.kind === 'ask_restart')).toHaveLength(2);
    const notes = reports.filter((r) => r.status === 'running' && r.note).map((r) => r.note);
    expect(notes).toEqual([deferralNote(1, 2, 1), deferralNote(2, 2, 1)]);
  });

  it('restarts at once when the user chooses Restart now, and asks no one when no one is logged in', async () => {
    const now = run([step(1, 'REBOOT', { max_deferrals: 3 })], { sessions: () => [USER], answers: ['now'] });
    expect((await now.done).restart).toBeDefined();
    expect(now.executor.calls.filter((c) => c.kind === 'ask_restart')).toHaveLength(1);
    const alone = run([step(1, 'REBOOT', { max_deferrals: 3 })]);
    expect((await alone.done).restart).toBeDefined();
    expect(alone.executor.calls).toEqual([]);
  });

  it('Linux has no prompt: no deferral', async () => {
    const { done, executor } = run([step(1, 'REBOOT', { max_deferrals: 3 })], {
      sessions: () => [USER],
      answers: ['unsupported'],
    });
    const result = await done;
    expect(result.restart).toBeDefined();
    expect(result.steps[0]!.attempts[0]!.stdout).toContain('no restart prompt');
    expect(executor.calls).toHaveLength(1);
  });
});
