import { describe, expect, it } from 'vitest';
import type { AgentCheck, CheckResult } from '@outpost/contract/agent-protocol';
import { CHECK_OUTPUT_MAX } from '@outpost/contract/checks';
import { CheckScheduler, hysteresis } from './check-scheduler';
import type { CheckEvaluation } from './monitor';

// The scheduler with a scripted evaluator and a clock the test moves: hysteresis, change-only
// reporting, the batch after each `checks` message, and what a new set keeps and stops.

const check = (id: number, extra: Partial<AgentCheck> = {}): AgentCheck => ({
  id,
  type: 'memory',
  config: { type: 'memory', percent: 90 },
  intervalSeconds: 60,
  failuresBeforeAlert: 1,
  ...extra,
});

function setUp(states: Record<number, CheckEvaluation['state'][]>) {
  const sent: CheckResult[][] = [];
  const runs: number[] = [];
  const scheduler = new CheckScheduler({
    evaluate: (c) => {
      runs.push(c.id);
      const state = states[c.id]!.shift() ?? 'passing';
      return { state, output: `${c.id} is ${state}` };
    },
    send: (results) => sent.push(results),
    random: () => 0.5,
    firstRunSpreadMs: 10_000,
  });
  return { scheduler, sent, runs };
}

describe('hysteresis', () => {
  it('turns non-passing only after the configured count in a row, and passing at once', () => {
    const failing: CheckEvaluation = { state: 'failing', output: '' };
    expect(hysteresis(0, failing, 3)).toEqual({ nonPassing: 1, state: 'passing' });
    expect(hysteresis(1, failing, 3)).toEqual({ nonPassing: 2, state: 'passing' });
    expect(hysteresis(2, failing, 3)).toEqual({ nonPassing: 3, state: 'failing' });
    expect(hysteresis(3, { state: 'warning', output: '' }, 3)).toEqual({ nonPassing: 4, state: 'warning' });
    expect(hysteresis(4, { state: 'passing', output: '' }, 3)).toEqual({ nonPassing: 0, state: 'passing' });
  });
});

describe('the check scheduler', () => {
  it('runs each check soon after it arrives, then at its interval', () => {
    const { scheduler, runs } = setUp({ 1: [], 2: [] });
    scheduler.replace([check(1), check(2, { intervalSeconds: 30 })], 0);
    scheduler.tick(4_000);
    expect(runs).toEqual([]);
    scheduler.tick(5_000); // random 0.5 of the 10 s spread
    expect(runs).toEqual([1, 2]);
    scheduler.tick(34_000);
    expect(runs).toEqual([1, 2]);
    scheduler.tick(35_000);
    expect(runs).toEqual([1, 2, 2]);
    scheduler.tick(65_000);
    expect(runs).toEqual([1, 2, 2, 1, 2]);
  });

  it('reports every check once after a checks message, then only changes', () => {
    const { scheduler, sent } = setUp({ 1: ['passing', 'passing', 'failing', 'failing', 'passing'], 2: [] });
    scheduler.replace([check(1), check(2)], 0);
    scheduler.tick(5_000);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.map((r) => [r.checkId, r.state])).toEqual([
      [1, 'passing'],
      [2, 'passing'],
    ]);
    scheduler.tick(65_000); // passing again: nothing to say
    expect(sent).toHaveLength(1);
    scheduler.tick(125_000);
    expect(sent[1]).toEqual([
      { checkId: 1, state: 'failing', output: '1 is failing', checkedAt: new Date(125_000).toISOString() },
    ]);
    scheduler.tick(185_000); // still failing
    expect(sent).toHaveLength(2);
    scheduler.tick(245_000);
    expect(sent[2]!.map((r) => [r.checkId, r.state])).toEqual([[1, 'passing']]);
  });

  it('waits for failuresBeforeAlert failures in a row before reporting a failure', () => {
    const { scheduler, sent } = setUp({
      1: ['failing', 'failing', 'passing', 'warning', 'failing', 'failing'],
    });
    scheduler.replace([check(1, { failuresBeforeAlert: 3 })], 0);
    scheduler.tick(5_000);
    // the first report says passing, and that a failure is being counted
    expect(sent[0]![0]).toMatchObject({ state: 'passing' });
    expect(sent[0]![0]!.output).toContain('1 of 3');
    for (const at of [65_000, 125_000, 185_000, 245_000]) {
      scheduler.tick(at);
    }
    expect(sent).toHaveLength(1);
    scheduler.tick(305_000); // warning, failing, failing: three in a row
    expect(sent[1]).toEqual([expect.objectContaining({ checkId: 1, state: 'failing' })]);
  });

  it('keeps unchanged checks (state and schedule) and stops the ones that left at once', () => {
    const { scheduler, sent, runs } = setUp({ 1: ['failing', 'failing'], 2: [], 3: [] });
    scheduler.replace([check(1), check(2)], 0);
    scheduler.tick(5_000);
    expect(sent[0]!.map((r) => r.state)).toEqual(['failing', 'passing']);
    // check 2 leaves, check 3 arrives, check 1 is the same check
    scheduler.replace([check(1), check(3)], 20_000);
    scheduler.tick(25_000);
    expect(runs).toEqual([1, 2, 3]);
    // one batch with both: check 1 keeps its failing state without running again
    expect(sent[1]!.map((r) => [r.checkId, r.state])).toEqual([
      [1, 'failing'],
      [3, 'passing'],
    ]);
    scheduler.tick(65_000);
    expect(runs).toEqual([1, 2, 3, 1]);
    expect(runs.filter((id) => id === 2)).toHaveLength(1);
  });

  it('starts a check whose settings changed afresh', () => {
    const { scheduler, sent } = setUp({ 1: ['failing', 'passing'] });
    scheduler.replace([check(1)], 0);
    scheduler.tick(5_000);
    scheduler.replace([check(1, { config: { type: 'memory', percent: 95 } })], 10_000);
    scheduler.tick(12_000);
    expect(sent).toHaveLength(1); // waits for the changed check's first evaluation
    scheduler.tick(15_000);
    expect(sent[1]).toEqual([expect.objectContaining({ checkId: 1, state: 'passing' })]);
  });

  it('drops the result of a check that left while it ran, and trims long output', async () => {
    let finish: (e: CheckEvaluation) => void = () => undefined;
    const sent: CheckResult[][] = [];
    const scheduler = new CheckScheduler({
      evaluate: (c) =>
        c.id === 1
          ? new Promise<CheckEvaluation>((resolve) => (finish = resolve))
          : { state: 'warning', output: 'x'.repeat(CHECK_OUTPUT_MAX + 50) },
      send: (r) => sent.push(r),
      random: () => 0,
      initialReportWaitMs: 1_000,
    });
    scheduler.replace([check(1), check(2)], 0);
    scheduler.tick(0);
    scheduler.replace([check(2)], 500);
    finish({ state: 'failing', output: 'late' });
    await Promise.resolve();
    scheduler.tick(1_000);
    expect(sent.flat().map((r) => r.checkId)).toEqual([2]);
    expect(sent[0]![0]!.output).toHaveLength(CHECK_OUTPUT_MAX);
  });
});
