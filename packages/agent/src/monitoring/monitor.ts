import type { AgentCheck, MetricsMessage } from '@outpost/contract/agent-protocol';
import type { CheckState } from '@outpost/contract/checks';

// What the agent's checks and metrics need from a machine (docs/agent.md "Checks and metrics"):
// the real one (system-monitor.ts) or a simulated one (sim/sim-monitor.ts). Both are driven by one
// shared tick, so ten thousand simulated agents cost one timer, not one per check.

/** One evaluation of a check, before the failure count: a state and a short sentence. */
export type CheckEvaluation = { state: CheckState; output: string };

/** A minute's metrics, as the `metrics` message carries them. */
export type MetricsSample = Omit<MetricsMessage, 'type'>;

export type Monitor = {
  /** evaluates one check now (a simulated machine answers at once, without a promise) */
  evaluate(check: AgentCheck, now: number): CheckEvaluation | Promise<CheckEvaluation>;
  /** called at every tick: takes a CPU sample when one is due */
  tick?(now: number): void;
  /** the minute that just ended; null when there is nothing to send yet */
  metrics(now: number): MetricsSample | null | Promise<MetricsSample | null>;
  /** releases what the monitor holds (a running script is stopped) */
  stop?(): void;
};

/** A periodic tick several listeners share. */
export type Ticker = {
  add(listener: (now: number) => void): () => void;
};

/** One interval timer (unref'd) while anyone listens. */
export function createIntervalTicker(periodMs = 1000, now: () => number = Date.now): Ticker {
  const listeners = new Set<(now: number) => void>();
  let timer: NodeJS.Timeout | null = null;
  return {
    add(listener) {
      listeners.add(listener);
      if (!timer) {
        timer = setInterval(() => {
          const at = now();
          for (const l of listeners) {
            l(at);
          }
        }, periodMs);
        timer.unref();
      }
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0 && timer) {
          clearInterval(timer);
          timer = null;
        }
      };
    },
  };
}

/** The first evaluation of a check runs within this long after its `checks` message (jitter). */
export const FIRST_RUN_SPREAD_MS = 10_000;
/** A `metrics` message every minute. */
export const METRICS_INTERVAL_MS = 60_000;
/** CPU is sampled this often; the minute's average and peak come from these samples. */
export const CPU_SAMPLE_MS = 5_000;
