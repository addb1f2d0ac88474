import { createHash } from 'node:crypto';
import type { RolloutPlanInput, WaveGate } from '@outpost/contract/rollouts';
import { rolloutMessages as messages } from '@outpost/contract/rollout-messages';

// The rules of a rollout that need no database (docs/product/rollouts.md#waves, #gates): a plan's
// checks, how a job's devices split into waves, and what a wave's counts say about its gate.

/** A wave as creation writes it: its gate resolved and its devices chosen. */
export type PlannedWave = {
  index: number;
  name: string;
  groupId: number | null;
  percent: number | null;
  gate: WaveGate;
  deviceIds: number[];
};

/** The wave's gate: the plan's gate, overridden field by field by the wave's own. */
export function waveGate(plan: RolloutPlanInput, wave: RolloutPlanInput['waves'][number]): WaveGate {
  const own = wave.gate ?? {};
  return {
    min_finished_percent: own.min_finished_percent ?? plan.gate.min_finished_percent,
    min_success_percent: own.min_success_percent ?? plan.gate.min_success_percent,
    soak_minutes: own.soak_minutes ?? plan.gate.soak_minutes,
  };
}

/** Why a plan cannot be used (a 400's message), or null. Groups are checked against the caller's scope later. */
export function planProblem(plan: RolloutPlanInput): string | null {
  if (plan.mode === 'groups') {
    const ids = plan.waves.map((w) => w.group_id);
    if (ids.some((id) => id === undefined)) {
      return messages.groupRequired;
    }
    return new Set(ids).size === ids.length ? null : messages.groupTwice;
  }
  const percents = plan.waves.map((w) => w.percent);
  if (percents.some((p) => p === undefined)) {
    return messages.percentRequired;
  }
  for (let i = 1; i < percents.length; i++) {
    if (percents[i]! <= percents[i - 1]!) {
      return messages.percentsMustRise;
    }
  }
  return percents.at(-1) === 100 ? null : messages.lastPercent;
}

/** A stable but shuffled order of a job's devices: the first wave is not just the lowest ids. */
export function shuffledOrder(jobId: number, deviceIds: readonly number[]): number[] {
  const key = (id: number) => createHash('sha1').update(`${jobId}:${id}`).digest('hex');
  return deviceIds
    .map((id) => ({ id, k: key(id) }))
    .sort((a, b) => (a.k < b.k ? -1 : a.k > b.k ? 1 : a.id - b.id))
    .map((x) => x.id);
}

/**
 * Percent mode: wave i holds the devices up to its cumulative percent of the shuffled order,
 * at least one device per wave while there are enough devices.
 */
export function percentWaves(
  plan: RolloutPlanInput,
  jobId: number,
  deviceIds: readonly number[],
): PlannedWave[] {
  const order = shuffledOrder(jobId, deviceIds);
  const n = order.length;
  const count = plan.waves.length;
  const ends: number[] = [];
  plan.waves.forEach((w, i) => {
    const previous = i === 0 ? 0 : ends[i - 1]!;
    let end = Math.ceil((n * (w.percent ?? 100)) / 100);
    end = Math.max(end, Math.min(previous + 1, n));
    if (n >= count) {
      end = Math.min(end, n - (count - 1 - i)); // a device left for each later wave
    }
    ends.push(i === count - 1 ? n : end);
  });
  return plan.waves.map((w, i) => ({
    index: i,
    name: messages.waveName(i, w.percent ?? 100),
    groupId: null,
    percent: w.percent ?? 100,
    gate: waveGate(plan, w),
    deviceIds: order.slice(i === 0 ? 0 : ends[i - 1], ends[i]),
  }));
}

/**
 * Groups mode: a device joins the first wave whose group holds it; the job's devices in none of
 * the groups form a last wave, "Remaining devices", with the plan's gate.
 */
export function groupWaves(
  plan: RolloutPlanInput,
  groups: readonly { id: number; name: string; deviceIds: readonly number[] }[],
  deviceIds: readonly number[],
): PlannedWave[] {
  const left = new Set(deviceIds);
  const waves: PlannedWave[] = plan.waves.map((w, i) => {
    const group = groups.find((g) => g.id === w.group_id);
    const mine = (group?.deviceIds ?? []).filter((id) => left.delete(id));
    return {
      index: i,
      name: group?.name ?? `Wave ${i + 1}`,
      groupId: group?.id ?? null,
      percent: null,
      gate: waveGate(plan, w),
      deviceIds: mine.sort((a, b) => a - b),
    };
  });
  if (left.size > 0) {
    waves.push({
      index: waves.length,
      name: messages.remainingWave,
      groupId: null,
      percent: null,
      gate: { ...plan.gate },
      deviceIds: [...left].sort((a, b) => a - b),
    });
  }
  return waves;
}

export type WaveCounts = {
  total: number;
  pending: number;
  running: number;
  completed: number;
  failed: number;
  cancelled: number;
};

export type GateGauge = Pick<WaveGate, 'min_finished_percent' | 'min_success_percent'>;

/** Devices that may fail before the wave halts: total × (100 − min_success_percent) / 100. */
export const allowedFailures = (total: number, gate: GateGauge) =>
  (total * (100 - gate.min_success_percent)) / 100;

/**
 * What a wave's counts say: 'halt' when more devices failed than the gate allows (and more than
 * when it was last resumed after a halt); 'met' when enough finished and enough of the wave's
 * total completed; 'open' otherwise. The failures a resume acknowledged leave the success
 * share's base, so a wave resumed after a halt can still pass once its other devices succeed.
 * A wave without devices meets its gate.
 */
export function gateVerdict(c: WaveCounts, gate: GateGauge, resumedFailed = 0): 'halt' | 'met' | 'open' {
  if (c.failed > allowedFailures(c.total, gate) && c.failed > resumedFailed) {
    return 'halt';
  }
  const finished = c.completed + c.failed + c.cancelled;
  const enoughFinished = finished * 100 >= c.total * gate.min_finished_percent;
  const enoughSucceeded = c.completed * 100 >= (c.total - resumedFailed) * gate.min_success_percent;
  return enoughFinished && enoughSucceeded ? 'met' : 'open';
}

/** The reason of an automatic halt, in words. */
export function haltReason(waveIndex: number, c: WaveCounts, gate: GateGauge): string {
  return messages.halted(waveIndex, c.failed, c.total, 100 - gate.min_success_percent);
}
