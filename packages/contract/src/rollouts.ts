import { z } from 'zod';
import { Id } from './input';

// Safe rollouts (docs/product/rollouts.md): a deployment split into waves, each with a gate that
// must pass before the next wave is dispatched, and an automatic halt.

export const ROLLOUT_MODES = ['percent', 'groups'] as const;
export type RolloutMode = (typeof ROLLOUT_MODES)[number];

export const MAX_WAVES = 10;
/**
 * The most devices a rollout drawn from its wave groups may hold (no devices or group chosen):
 * more than a plain job's MAX_DEVICES_PER_JOB, since its waves go out one at a time.
 */
export const MAX_ROLLOUT_DEVICES = 10_000;
export const GATE_REASON_MAX = 500;

/**
 * The gate between a wave and the next (docs/product/rollouts.md#gates). A wave's devices count
 * as finished once they completed, failed, were cancelled or expired (an offline device expires,
 * so it never blocks a gate for longer than the offline expiry). The failure threshold is
 * 100 − `min_success_percent` of the wave's devices: the rollout halts as soon as more devices
 * failed than that, since the wave can no longer reach its success rate.
 */
export const WaveGate = z.object({
  min_finished_percent: z.number().int().min(1).max(100).default(90),
  min_success_percent: z.number().int().min(0).max(100).default(95),
  soak_minutes: z
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(0),
});
export type WaveGate = z.output<typeof WaveGate>;
export const DEFAULT_WAVE_GATE: WaveGate = {
  min_finished_percent: 90,
  min_success_percent: 95,
  soak_minutes: 0,
};

/**
 * One wave as the creator plans it. Percent mode: `percent` is cumulative (5 → 25 → 100; the last
 * wave is 100). Groups mode: `group_id` names the wave's group; a device joins the first wave
 * whose group holds it, and the job's devices in none of the groups form a last wave.
 */
export const RolloutWaveSpec = z.object({
  percent: z.number().int().min(1).max(100).optional(),
  group_id: Id.optional(),
  /**
   * overrides the plan's gate for this wave, field by field (no defaults here: a field left out
   * is the plan's, not WaveGate's default)
   */
  gate: z
    .object({
      min_finished_percent: z.number().int().min(1).max(100).optional(),
      min_success_percent: z.number().int().min(0).max(100).optional(),
      soak_minutes: z
        .number()
        .int()
        .min(0)
        .max(7 * 24 * 60)
        .optional(),
    })
    .optional(),
});
export type RolloutWaveSpec = z.input<typeof RolloutWaveSpec>;

export const RolloutPlan = z.object({
  mode: z.enum(ROLLOUT_MODES, { error: 'mode must be percent or groups' }),
  waves: z
    .array(RolloutWaveSpec)
    .min(2, 'A rollout needs at least 2 waves')
    .max(MAX_WAVES, `At most ${MAX_WAVES} waves`),
  gate: WaveGate.default(DEFAULT_WAVE_GATE),
});
export type RolloutPlan = z.input<typeof RolloutPlan>;
export type RolloutPlanInput = z.output<typeof RolloutPlan>;

// ---------- state (GET /customer/deployments/{id} → rollout) ----------

export const ROLLOUT_STATES = ['running', 'paused', 'halted', 'aborted', 'completed'] as const;
export const RolloutState = z.enum(ROLLOUT_STATES);
export type RolloutState = z.infer<typeof RolloutState>;

/** waiting: not dispatched yet; running: dispatched, gate not met; soaking: gate met, soak time running. */
export const WAVE_STATES = ['waiting', 'running', 'soaking', 'passed', 'halted', 'aborted'] as const;
export const WaveState = z.enum(WAVE_STATES);
export type WaveState = z.infer<typeof WaveState>;

export const RolloutWave = z.object({
  index: z.number().int(),
  name: z.string(),
  group_id: z.number().int().nullable(),
  percent: z.number().int().nullable(),
  gate: z.object({
    min_finished_percent: z.number().int(),
    min_success_percent: z.number().int(),
    soak_minutes: z.number().int(),
  }),
  state: WaveState,
  total_devices: z.number().int(),
  completed_devices: z.number().int(),
  failed_devices: z.number().int(),
  /** completed, failed, cancelled or expired */
  finished_devices: z.number().int(),
  started_at: z.string().nullable(),
  gate_met_at: z.string().nullable(),
  /** when the soak ends and the next wave starts (unless paused or halted) */
  soak_until: z.string().nullable(),
  passed_at: z.string().nullable(),
  gate_skipped_reason: z.string().nullable(),
  gate_skipped_by_name: z.string().nullable(),
});
export type RolloutWave = z.infer<typeof RolloutWave>;

export const Rollout = z.object({
  mode: z.enum(ROLLOUT_MODES),
  state: RolloutState,
  current_wave: z.number().int(),
  /** why it halted (automatic) or who paused/aborted it */
  state_reason: z.string().nullable(),
  state_changed_at: z.string().nullable(),
  waves: z.array(RolloutWave),
});
export type Rollout = z.infer<typeof Rollout>;

// ---------- actions (POST /customer/deployments/{id}/rollout/{pause|resume|abort|skip-gate}) ----------

export const ROLLOUT_ACTIONS = ['pause', 'resume', 'abort', 'skip-gate'] as const;
export type RolloutAction = (typeof ROLLOUT_ACTIONS)[number];

export const SkipGateBody = z.object({
  reason: z
    .string()
    .trim()
    .min(1, 'A reason is required to skip a gate')
    .max(GATE_REASON_MAX, `Reason must be ${GATE_REASON_MAX} characters or less`),
});
export type SkipGateBody = z.infer<typeof SkipGateBody>;

/**
 * Resume a paused or halted rollout. `use_current_package`: the devices that have not started
 * yet run the package's steps as they are now (after a fix), not the job's copy; recorded in the
 * audit log.
 */
export const ResumeRolloutBody = z.object({
  use_current_package: z.boolean().default(false),
});
export type ResumeRolloutBody = z.input<typeof ResumeRolloutBody>;

/** The answer of every rollout action. */
export type RolloutActionResponse = { job_id: number; rollout: Rollout };

/** Why a device's part is held back (docs/product/rollouts.md#device-states). */
export const DEVICE_HOLDS = ['wave', 'halted', 'window', 'rebooting'] as const;
export const DeviceHold = z.enum(DEVICE_HOLDS);
export type DeviceHold = z.infer<typeof DeviceHold>;
export const DEVICE_HOLD_LABELS: Record<DeviceHold, string> = {
  wave: 'Waiting for its wave',
  halted: 'Held: rollout halted',
  window: 'Waiting for window',
  rebooting: 'Rebooting',
};
