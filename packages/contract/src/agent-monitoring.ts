import { z } from 'zod';
import { INT4_MAX } from './input';
import { CHECK_OUTPUT_MAX, CHECK_TYPES, CheckConfig, CheckState, CHECKS_PER_DEVICE_MAX } from './checks';
import { SAMPLE_VOLUMES_MAX } from './metrics';

// The agent protocol's monitoring messages (docs/product/monitoring.md#checks), re-exported by
// agent-protocol.ts: the server sends an agent with the `checks` capability its check set; the
// agent reports check states when they change and a metrics sample once a minute.

const id = z.string().min(1).max(128);
const isoTime = z.string().max(64);

/**
 * Check states that changed (docs/product/monitoring.md#checks): a check is reported when its
 * state (after its failure count) differs from the last one reported, and once for every check
 * after each `checks` message (so the server holds every check's state). Acknowledged.
 */
export const CheckResult = z.object({
  checkId: z.number().int().positive().max(INT4_MAX),
  state: CheckState,
  output: z.string().max(CHECK_OUTPUT_MAX).nullable().optional(),
  checkedAt: isoTime,
});
export type CheckResult = z.infer<typeof CheckResult>;
export const CheckResultsMessage = z.object({
  type: z.literal('check_results'),
  messageId: id,
  results: z.array(CheckResult).min(1).max(CHECKS_PER_DEVICE_MAX),
});
export type CheckResultsMessage = z.infer<typeof CheckResultsMessage>;

/** A volume's use in one sample: its mount point (or drive), % used, sizes in bytes. */
export const VolumeSample = z.object({
  mount: z.string().min(1).max(260),
  usedPercent: z.number().min(0).max(100),
  totalBytes: z.number().nonnegative().optional(),
  freeBytes: z.number().nonnegative().optional(),
});
/**
 * One minute's metrics: CPU (the minute's average and peak, %), memory in use (%), each volume.
 * Not acknowledged: a sample lost with a socket is a gap in a chart, not a wrong state.
 */
export const MetricsMessage = z.object({
  type: z.literal('metrics'),
  sampledAt: isoTime,
  cpu: z.number().min(0).max(100),
  cpuMax: z.number().min(0).max(100).optional(),
  memory: z.number().min(0).max(100),
  volumes: z.array(VolumeSample).max(SAMPLE_VOLUMES_MAX).default([]),
});
export type MetricsMessage = z.infer<typeof MetricsMessage>;

/** A check as the agent runs it: the policy's settings without names or severities. */
export const AgentCheck = z.object({
  id: z.number().int().positive(),
  type: z.enum(CHECK_TYPES),
  config: CheckConfig,
  intervalSeconds: z.number().int().positive(),
  /** consecutive non-passing evaluations before the state is reported as warning/failing */
  failuresBeforeAlert: z.number().int().positive(),
});
export type AgentCheck = z.infer<typeof AgentCheck>;

/**
 * The device's whole check set (sent only to agents with the `checks` capability): after the
 * welcome and whenever it changes. It replaces what the agent ran before; `revision` names it
 * (the same set has the same revision). Checks that left the set stop at once.
 */
export const ChecksMessage = z.object({
  type: z.literal('checks'),
  revision: z.string().max(128),
  checks: z.array(AgentCheck).max(CHECKS_PER_DEVICE_MAX),
});
export type ChecksMessage = z.infer<typeof ChecksMessage>;
