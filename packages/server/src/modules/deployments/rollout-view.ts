import type { Rollout, RolloutWave, WaveState } from '@outpost/contract/rollouts';
import type { Reader } from '../../lib/db';
import type { JobRow } from './deployments.queries';
import { listWaves, waveStatusCounts } from './engine/rollout.queries';
import type { WaveRow } from './engine/rollout.queries';
import type { WaveCounts } from './engine/rollout-rules';

// A job's rollout as the API answers it (docs/product/rollouts.md#waves): each wave's state,
// gate and timing, with counts computed from the device rows.

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** A wave's state from its timing and the rollout's. */
export function waveState(job: JobRow, wave: WaveRow): WaveState {
  const current = job.currentWave ?? 0;
  if (wave.passedAt) {
    return 'passed';
  }
  if (wave.waveIndex > current || (wave.waveIndex === 0 && !job.dispatchedAt && job.status === 'pending')) {
    return job.rolloutState === 'aborted' ? 'aborted' : 'waiting';
  }
  if (job.rolloutState === 'aborted') {
    return 'aborted';
  }
  if (job.rolloutState === 'halted' && wave.haltedAt) {
    return 'halted';
  }
  return wave.soakUntil ? 'soaking' : 'running';
}

const noCounts: WaveCounts = { total: 0, pending: 0, running: 0, completed: 0, failed: 0, cancelled: 0 };

export function toRolloutWave(job: JobRow, wave: WaveRow, c: WaveCounts = noCounts): RolloutWave {
  return {
    index: wave.waveIndex,
    name: wave.name,
    group_id: wave.groupId,
    percent: wave.percent,
    gate: {
      min_finished_percent: wave.minFinishedPercent,
      min_success_percent: wave.minSuccessPercent,
      soak_minutes: wave.soakMinutes,
    },
    state: waveState(job, wave),
    total_devices: c.total,
    completed_devices: c.completed,
    failed_devices: c.failed,
    finished_devices: c.completed + c.failed + c.cancelled,
    started_at: iso(wave.startedAt),
    gate_met_at: iso(wave.gateMetAt),
    soak_until: iso(wave.soakUntil),
    passed_at: iso(wave.passedAt),
    gate_skipped_reason: wave.gateSkippedReason,
    gate_skipped_by_name: wave.gateSkippedByName,
  };
}

/** The job's rollout, or null when it has none. */
export async function rolloutOf(db: Reader, job: JobRow): Promise<Rollout | null> {
  if (!job.rollout || !job.rolloutState) {
    return null;
  }
  const [waves, counts] = await Promise.all([listWaves(db, job.id), waveStatusCounts(db, job.id)]);
  return {
    mode: job.rollout.mode,
    state: job.rolloutState,
    current_wave: job.currentWave ?? 0,
    state_reason: job.rolloutStateReason,
    state_changed_at: iso(job.rolloutStateAt),
    waves: waves.map((w) => toRolloutWave(job, w, counts.get(w.waveIndex))),
  };
}
