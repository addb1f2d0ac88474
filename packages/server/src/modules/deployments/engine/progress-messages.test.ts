import { describe, expect, it } from 'vitest';
import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { attemptsOf, unapplied } from './progress-messages';

// How a device's run of step_progress messages (several applied in one batch) becomes its row's
// writes: the messages not applied yet, one log per attempt.

const m = (seq: number, extra: Partial<StepProgressMessage> = {}): StepProgressMessage => ({
  type: 'step_progress',
  messageId: `m-${seq}`,
  commandId: 'c-1',
  seq,
  stepOrder: 1,
  attempt: 1,
  status: 'running',
  ...extra,
});

describe('a run of progress messages', () => {
  it('applies only what is above the row’s seq, each message once', () => {
    const { fresh, isRestart } = unapplied(2, [m(2), m(3), m(3), m(4)]);
    expect(fresh.map((x) => x.seq)).toEqual([3, 4]);
    expect(isRestart).toBe(false);
    expect(unapplied(4, [m(2), m(3)]).fresh).toEqual([]);
  });

  it('starts over at seq 1 after others (the agent ran the command again): what came before is dropped', () => {
    const { fresh, isRestart } = unapplied(5, [m(6), m(1), m(2)]);
    expect(fresh.map((x) => x.seq)).toEqual([1, 2]);
    expect(isRestart).toBe(true);
    expect(unapplied(0, [m(1), m(2)]).isRestart).toBe(false);
  });

  it('merges each attempt’s messages as the log applies them: output appended, the first final status kept', () => {
    const merged = attemptsOf([
      m(1, { startedAt: 'S1' }),
      m(2, { stdout: 'a\n', stderr: 'w\n' }),
      m(3, { status: 'failed', exitCode: 1, errorMessage: 'Exit code 1', stdout: 'b\n', completedAt: 'E1' }),
      m(4, { attempt: 2, startedAt: 'S2' }),
      m(5, { stepOrder: 2, status: 'cancelled', errorMessage: 'Not run', attempt: undefined }),
      m(6, { attempt: 2, status: 'completed', exitCode: 0, completedAt: 'E2', startedAt: 'S2' }),
      m(7, { status: 'completed', exitCode: 0, stdout: 'late\n' }),
    ]);
    expect(
      merged.map((x) => [
        x.stepOrder,
        x.attempt,
        x.status,
        x.exitCode,
        x.startedAt,
        x.completedAt,
        x.stdout,
        x.stderr,
      ]),
    ).toEqual([
      [1, 1, 'failed', 1, 'S1', 'E1', 'a\nb\nlate\n', 'w\n'],
      [1, 2, 'completed', 0, 'S2', 'E2', undefined, undefined],
      [2, undefined, 'cancelled', undefined, undefined, undefined, undefined, undefined],
    ]);
    expect(merged[0]!.errorMessage).toBe('Exit code 1');
  });
});
