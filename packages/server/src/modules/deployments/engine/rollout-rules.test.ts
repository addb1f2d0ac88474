import { describe, expect, it } from 'vitest';
import { RolloutPlan } from '@outpost/contract/rollouts';
import type { RolloutPlanInput } from '@outpost/contract/rollouts';
import { rolloutMessages } from '@outpost/contract/rollout-messages';
import { gateVerdict, groupWaves, haltReason, percentWaves, planProblem, waveGate } from './rollout-rules';
import type { WaveCounts } from './rollout-rules';

// The rollout rules without a database (docs/product/rollouts.md#waves, #gates).

const plan = (input: unknown): RolloutPlanInput => RolloutPlan.parse(input);
const counts = (c: Partial<WaveCounts> & { total: number }): WaveCounts => ({
  pending: 0,
  running: 0,
  completed: 0,
  failed: 0,
  cancelled: 0,
  ...c,
});
const gate = { min_finished_percent: 90, min_success_percent: 95 };
const range = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

describe('planProblem', () => {
  it('wants rising cumulative percents ending at 100', () => {
    expect(
      planProblem(plan({ mode: 'percent', waves: [{ percent: 5 }, { percent: 25 }, { percent: 100 }] })),
    ).toBeNull();
    expect(
      planProblem(plan({ mode: 'percent', waves: [{ percent: 25 }, { percent: 25 }, { percent: 100 }] })),
    ).toBe(rolloutMessages.percentsMustRise);
    expect(planProblem(plan({ mode: 'percent', waves: [{ percent: 5 }, { percent: 50 }] }))).toBe(
      rolloutMessages.lastPercent,
    );
    expect(planProblem(plan({ mode: 'percent', waves: [{ percent: 5 }, {}] }))).toBe(
      rolloutMessages.percentRequired,
    );
  });

  it('wants a group per wave, each once', () => {
    expect(planProblem(plan({ mode: 'groups', waves: [{ group_id: 1 }, { group_id: 2 }] }))).toBeNull();
    expect(planProblem(plan({ mode: 'groups', waves: [{ group_id: 1 }, {}] }))).toBe(
      rolloutMessages.groupRequired,
    );
    expect(planProblem(plan({ mode: 'groups', waves: [{ group_id: 1 }, { group_id: 1 }] }))).toBe(
      rolloutMessages.groupTwice,
    );
  });
});

describe('waveGate', () => {
  it('is the plan gate overridden field by field by the wave’s', () => {
    const p = plan({
      mode: 'percent',
      waves: [{ percent: 50, gate: { soak_minutes: 30 } }, { percent: 100 }],
      gate: { min_success_percent: 80 },
    });
    expect(waveGate(p, p.waves[0]!)).toEqual({
      min_finished_percent: 90,
      min_success_percent: 80,
      soak_minutes: 30,
    });
    expect(waveGate(p, p.waves[1]!)).toEqual({
      min_finished_percent: 90,
      min_success_percent: 80,
      soak_minutes: 0,
    });
  });
});

describe('percentWaves', () => {
  const p = plan({ mode: 'percent', waves: [{ percent: 5 }, { percent: 25 }, { percent: 100 }] });

  it('splits by cumulative percent, every device once, in a shuffled but stable order', () => {
    const waves = percentWaves(p, 7, range(100));
    expect(waves.map((w) => w.deviceIds.length)).toEqual([5, 20, 75]);
    expect(new Set(waves.flatMap((w) => w.deviceIds)).size).toBe(100);
    expect(waves[0]!.deviceIds).not.toEqual([1, 2, 3, 4, 5]);
    expect(percentWaves(p, 7, range(100).reverse())).toEqual(waves);
    expect(percentWaves(p, 8, range(100))[0]!.deviceIds).not.toEqual(waves[0]!.deviceIds);
  });

  it('gives each wave a device when there are enough', () => {
    expect(percentWaves(p, 1, range(3)).map((w) => w.deviceIds.length)).toEqual([1, 1, 1]);
    expect(percentWaves(p, 1, range(4)).map((w) => w.deviceIds.length)).toEqual([1, 1, 2]);
    expect(percentWaves(p, 1, range(2)).map((w) => w.deviceIds.length)).toEqual([1, 1, 0]);
  });
});

describe('groupWaves', () => {
  it('puts a device in the first wave whose group holds it, the rest in a last wave', () => {
    const p = plan({ mode: 'groups', waves: [{ group_id: 10 }, { group_id: 20 }] });
    const waves = groupWaves(
      p,
      [
        { id: 10, name: 'Pilot', deviceIds: [1, 2] },
        { id: 20, name: 'Office', deviceIds: [2, 3, 9] },
      ],
      [1, 2, 3, 4, 5],
    );
    expect(waves.map((w) => [w.name, w.deviceIds])).toEqual([
      ['Pilot', [1, 2]],
      ['Office', [3]],
      [rolloutMessages.remainingWave, [4, 5]],
    ]);
  });
});

describe('gateVerdict', () => {
  it('halts when more failed than 100 − min_success percent of the wave', () => {
    expect(gateVerdict(counts({ total: 20, failed: 1, pending: 19 }), gate)).toBe('open');
    expect(gateVerdict(counts({ total: 20, failed: 2, pending: 18 }), gate)).toBe('halt');
    expect(haltReason(1, counts({ total: 20, failed: 3 }), gate)).toBe(
      'Wave 2 halted: 3 of 20 devices failed (15 %), above the 5 % allowed',
    );
  });

  it('is met when enough finished and enough of the total succeeded', () => {
    expect(gateVerdict(counts({ total: 20, completed: 17, running: 3 }), gate)).toBe('open');
    expect(gateVerdict(counts({ total: 20, completed: 19, running: 1 }), gate)).toBe('met');
    expect(gateVerdict(counts({ total: 20, completed: 19, failed: 1 }), gate)).toBe('met');
    expect(gateVerdict(counts({ total: 0 }), gate)).toBe('met');
  });

  it('after a resume, halts again only on a new failure', () => {
    expect(gateVerdict(counts({ total: 20, failed: 2, pending: 18 }), gate, 2)).toBe('open');
    expect(gateVerdict(counts({ total: 20, failed: 3, pending: 17 }), gate, 2)).toBe('halt');
  });

  it('after a resume, passes once the devices other than the acknowledged failures succeed', () => {
    // 4 devices, 1 failed and acknowledged by the resume: the other 3 decide
    expect(gateVerdict(counts({ total: 4, completed: 2, failed: 1, pending: 1 }), gate, 1)).toBe('open');
    expect(gateVerdict(counts({ total: 4, completed: 3, failed: 1 }), gate, 1)).toBe('met');
    // without the resume the same counts stay short of 95 %
    expect(
      gateVerdict(counts({ total: 4, completed: 3, failed: 1 }), { ...gate, min_success_percent: 95 }),
    ).not.toBe('met');
  });

  it('never halts with min_success 0', () => {
    expect(
      gateVerdict(counts({ total: 4, failed: 4 }), { min_finished_percent: 100, min_success_percent: 0 }),
    ).toBe('met');
  });
});
