import type { Rollout, RolloutState, RolloutWave, WaveState } from '@outpost/contract/rollouts';
import type { Tone } from '../../../components/ui/badge';

// How a rollout reads on the deployment's page (docs/product/rollouts.md#waves, #gates, #rollout-actions), free of React.

export const ROLLOUT_STATE_BADGES: Record<RolloutState, { label: string; tone: Tone }> = {
  running: { label: 'Running', tone: 'blue' },
  paused: { label: 'Paused', tone: 'yellow' },
  halted: { label: 'Halted', tone: 'red' },
  aborted: { label: 'Aborted', tone: 'gray' },
  completed: { label: 'Completed', tone: 'green' },
};

export const WAVE_STATE_BADGES: Record<WaveState | 'skipped', { label: string; tone: Tone }> = {
  waiting: { label: 'Waiting', tone: 'gray' },
  running: { label: 'Running', tone: 'blue' },
  soaking: { label: 'Soaking', tone: 'purple' },
  passed: { label: 'Passed', tone: 'green' },
  halted: { label: 'Halted', tone: 'red' },
  aborted: { label: 'Aborted', tone: 'gray' },
  skipped: { label: 'Gate skipped', tone: 'yellow' },
};

/** The gate's state as shown: a passed wave whose gate was skipped says so. */
export const waveBadgeState = (w: Pick<RolloutWave, 'state' | 'gate_skipped_reason'>) =>
  w.state === 'passed' && w.gate_skipped_reason ? 'skipped' : w.state;

/** "4:05" until `until` (never below 0:00); hours when an hour or more remains. */
export function countdown(until: string | null, now = Date.now()): string | null {
  if (!until) {
    return null;
  }
  const total = Math.max(0, Math.ceil((new Date(until).getTime() - now) / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The shares of a wave's devices that completed, failed, and are still to finish (0–100). */
export function waveShares(w: Pick<RolloutWave, 'total_devices' | 'completed_devices' | 'failed_devices'>) {
  if (w.total_devices <= 0) {
    return { completed: 0, failed: 0, pending: 100 };
  }
  const completed = (w.completed_devices / w.total_devices) * 100;
  const failed = (w.failed_devices / w.total_devices) * 100;
  return { completed, failed, pending: Math.max(0, 100 - completed - failed) };
}

/** What a wave's gate needs, in a line: "Gate: 90 % finished, 95 % succeeded, soak 30 min". */
export function gateLine(gate: RolloutWave['gate']): string {
  const soak = gate.soak_minutes > 0 ? `, soak ${gate.soak_minutes} min` : '';
  return `Gate: ${gate.min_finished_percent} % finished, ${gate.min_success_percent} % succeeded${soak}`;
}

export type RolloutActionName = 'pause' | 'resume' | 'abort' | 'skip-gate';

/**
 * The actions the rollout offers now (docs/product/rollouts.md#rollout-actions), to a user who may cancel the job:
 * pause while running; resume while paused or halted; skip the gate of the current wave while it is
 * dispatched (running, soaking, or halted by its gate; after the last wave the rollout completes);
 * abort until it ends.
 */
export function rolloutActions(
  rollout: Pick<Rollout, 'state' | 'current_wave' | 'waves'>,
): RolloutActionName[] {
  const current = rollout.waves.find((w) => w.index === rollout.current_wave);
  const skip =
    current && ['running', 'soaking', 'halted'].includes(current.state) ? (['skip-gate'] as const) : [];
  switch (rollout.state) {
    case 'running':
      return ['pause', ...skip, 'abort'];
    case 'paused':
    case 'halted':
      return ['resume', ...skip, 'abort'];
    case 'aborted':
    case 'completed':
      return [];
  }
}

export type RolloutEvent = {
  key: string;
  label: string;
  at: string;
  tone: 'info' | 'success' | 'danger' | 'warn';
};

/**
 * The rollout's moments for the job's timeline: each wave started and passed (or its gate skipped),
 * then the rollout's last change of state (halted with its reason, paused, resumed, aborted).
 * Resumed: running again after a state change later than the first wave's start.
 */
export function rolloutEvents(rollout: Rollout): RolloutEvent[] {
  const events: RolloutEvent[] = [];
  for (const w of rollout.waves) {
    if (w.started_at) {
      events.push({
        key: `wave-${w.index}-started`,
        label: `${w.name} started`,
        at: w.started_at,
        tone: 'info',
      });
    }
    if (w.passed_at) {
      const label = w.gate_skipped_reason
        ? `${w.name}: gate skipped by ${w.gate_skipped_by_name ?? 'Unknown'} (${w.gate_skipped_reason})`
        : `${w.name} passed its gate`;
      events.push({ key: `wave-${w.index}-passed`, label, at: w.passed_at, tone: 'success' });
    }
  }
  const at = rollout.state_changed_at;
  const firstStart = rollout.waves[0]?.started_at;
  const reason = rollout.state_reason ? `: ${rollout.state_reason}` : '';
  if (at) {
    const change: Partial<Record<RolloutState, RolloutEvent>> = {
      halted: { key: 'rollout-halted', label: `Rollout halted${reason}`, at, tone: 'danger' },
      paused: { key: 'rollout-paused', label: `Rollout paused${reason}`, at, tone: 'warn' },
      aborted: { key: 'rollout-aborted', label: `Rollout aborted${reason}`, at, tone: 'danger' },
      ...(firstStart && Date.parse(at) > Date.parse(firstStart)
        ? {
            running: { key: 'rollout-resumed', label: `Rollout resumed${reason}`, at, tone: 'info' as const },
          }
        : {}),
    };
    const e = change[rollout.state];
    if (e) {
      events.push(e);
    }
  }
  return events.sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}
