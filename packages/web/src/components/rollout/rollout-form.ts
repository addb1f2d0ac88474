import type { RolloutMode, RolloutPlan } from '@outpost/contract/rollouts';
import { DEFAULT_WAVE_GATE, MAX_WAVES } from '@outpost/contract/rollouts';

// The deploy dialog's rollout section, free of React (docs/product/rollouts.md#the-rollout-section-of-the-deploy-dialog):
// its values, the rules that mirror the contract's RolloutPlan, and the plan it sends.

export type RolloutFormValues = {
  /** off: the job goes to every device at once and no `rollout` is sent */
  isOn: boolean;
  mode: RolloutMode;
  /** percent mode: cumulative percents, the last one is 100 */
  percents: { value: string }[];
  /** groups mode: one group id per wave, in order ('' until chosen) */
  groups: { groupId: string }[];
  minFinished: string;
  minSuccess: string;
  soakMinutes: string;
  /** devices start only inside their maintenance windows */
  onlyInWindows: boolean;
};

export const PERCENT_PRESET = [5, 25, 100] as const;
export const MAX_SOAK_MINUTES = 7 * 24 * 60;

export function defaultRolloutValues(): RolloutFormValues {
  return {
    isOn: false,
    mode: 'percent',
    percents: PERCENT_PRESET.map((p) => ({ value: String(p) })),
    groups: [{ groupId: '' }, { groupId: '' }],
    minFinished: String(DEFAULT_WAVE_GATE.min_finished_percent),
    minSuccess: String(DEFAULT_WAVE_GATE.min_success_percent),
    soakMinutes: String(DEFAULT_WAVE_GATE.soak_minutes),
    onlyInWindows: false,
  };
}

/** said under an empty group wave once the user tries to send */
export const CHOOSE_GROUP = 'Choose a group for this wave';

export type RolloutField = 'waves' | 'minFinished' | 'minSuccess' | 'soakMinutes';
export type RolloutProblem = { field: RolloutField; index?: number; message: string };

const toInt = (s: string): number | null => (/^\s*\d+\s*$/.test(s) ? Number(s) : null);

function intProblem(
  field: RolloutField,
  raw: string,
  label: string,
  min: number,
  max: number,
): RolloutProblem | null {
  const n = toInt(raw);
  return n === null || n < min || n > max
    ? { field, message: `${label} must be a whole number from ${min} to ${max}` }
    : null;
}

function percentProblems(percents: readonly { value: string }[]): RolloutProblem[] {
  const problems: RolloutProblem[] = [];
  let previous = 0;
  percents.forEach((p, index) => {
    const n = toInt(p.value);
    if (n === null || n < 1 || n > 100) {
      problems.push({ field: 'waves', index, message: 'Enter a whole percent from 1 to 100' });
    } else if (n <= previous) {
      problems.push({
        field: 'waves',
        index,
        message: 'Each wave must reach more devices than the one before',
      });
    }
    previous = n ?? previous;
  });
  const last = percents[percents.length - 1];
  if (last && toInt(last.value) !== 100) {
    problems.push({ field: 'waves', index: percents.length - 1, message: 'The last wave is 100 %' });
  }
  return problems;
}

function groupProblems(groups: readonly { groupId: string }[]): RolloutProblem[] {
  const problems: RolloutProblem[] = [];
  const seen = new Set<string>();
  groups.forEach((g, index) => {
    if (g.groupId === '') {
      problems.push({ field: 'waves', index, message: CHOOSE_GROUP });
    } else if (seen.has(g.groupId)) {
      problems.push({ field: 'waves', index, message: 'A group can be in one wave only' });
    }
    seen.add(g.groupId);
  });
  return problems;
}

/** Every rule the section breaks (none while it is off); the contract's limits, said in words. */
export function rolloutProblems(v: RolloutFormValues): RolloutProblem[] {
  if (!v.isOn) {
    return [];
  }
  const waves = v.mode === 'percent' ? v.percents : v.groups;
  const problems: RolloutProblem[] = [];
  if (waves.length < 2) {
    problems.push({ field: 'waves', message: 'A rollout needs at least 2 waves' });
  }
  if (waves.length > MAX_WAVES) {
    problems.push({ field: 'waves', message: `At most ${MAX_WAVES} waves` });
  }
  problems.push(...(v.mode === 'percent' ? percentProblems(v.percents) : groupProblems(v.groups)));
  const gate = [
    intProblem('minFinished', v.minFinished, 'Minimum finished', 1, 100),
    intProblem('minSuccess', v.minSuccess, 'Minimum success', 0, 100),
    intProblem('soakMinutes', v.soakMinutes, 'Soak time', 0, MAX_SOAK_MINUTES),
  ];
  return [...problems, ...gate.filter((p): p is RolloutProblem => p !== null)];
}

/** The plan to send, or undefined while the section is off. Call after rolloutProblems is empty. */
export function rolloutPlan(v: RolloutFormValues): RolloutPlan | undefined {
  if (!v.isOn) {
    return undefined;
  }
  return {
    mode: v.mode,
    waves:
      v.mode === 'percent'
        ? v.percents.map((p) => ({ percent: Number(p.value) }))
        : v.groups.map((g) => ({ group_id: Number(g.groupId) })),
    gate: {
      min_finished_percent: Number(v.minFinished),
      min_success_percent: Number(v.minSuccess),
      soak_minutes: Number(v.soakMinutes),
    },
  };
}

/** The gate in one sentence, with the numbers as typed (docs/product/rollouts.md#gates). */
export function gateSentence(v: Pick<RolloutFormValues, 'minFinished' | 'minSuccess' | 'soakMinutes'>) {
  const finished = toInt(v.minFinished) ?? DEFAULT_WAVE_GATE.min_finished_percent;
  const success = toInt(v.minSuccess) ?? DEFAULT_WAVE_GATE.min_success_percent;
  const soak = toInt(v.soakMinutes) ?? 0;
  const soakWords = soak === 0 ? 'at once' : `after the soak time (${soak} min)`;
  return (
    `A wave passes when ${finished} % of its devices have finished (completed, failed or expired: an offline ` +
    `device expires after the offline limit, so it never blocks the gate for ever) and at least ${success} % ` +
    `succeeded; then the next wave starts ${soakWords}. If more than ${Math.max(0, 100 - success)} % of a ` +
    `wave's devices fail, the rollout halts by itself.`
  );
}

/** "5 % → 25 % → 100 %" or "3 group waves + the rest", for the collapsed section's header. */
export function rolloutSummary(v: RolloutFormValues): string {
  if (!v.isOn) {
    return v.onlyInWindows ? 'All at once · inside maintenance windows' : 'Off: all devices at once';
  }
  const waves =
    v.mode === 'percent'
      ? v.percents.map((p) => `${p.value || '?'} %`).join(' → ')
      : `${v.groups.length} group wave${v.groups.length === 1 ? '' : 's'} + the rest`;
  return `${waves}${v.onlyInWindows ? ' · inside maintenance windows' : ''}`;
}

/**
 * A form that holds the rollout section's values under `rollout` (the deploy dialog, Update
 * Selected on the Agents page: docs/product/rollouts.md#agent-updates-in-waves).
 */
export type RolloutFormHost = { rollout?: RolloutFormValues };
