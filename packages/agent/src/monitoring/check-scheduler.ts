import type { AgentCheck, CheckResult } from '@outpost/contract/agent-protocol';
import { CHECK_OUTPUT_MAX, CHECKS_PER_DEVICE_MAX } from '@outpost/contract/checks';
import type { CheckState } from '@outpost/contract/checks';
import type { CheckEvaluation } from './monitor';
import { FIRST_RUN_SPREAD_MS } from './monitor';

// The agent's running check set (docs/product/monitoring.md#checks): each check runs at its
// interval, its state turns warning/failing only after `failuresBeforeAlert` non-passing
// evaluations in a row, and a state is reported only when it changes, plus every check's state
// once after each `checks` message, in one batch. Driven by tick(now) from a shared ticker.

export type SchedulerOptions = {
  evaluate(check: AgentCheck, now: number): CheckEvaluation | Promise<CheckEvaluation>;
  /** one `check_results` message's results (the agent sends it through its outbox) */
  send(results: CheckResult[]): void;
  random?: () => number;
  /** the first run of a new check lands within this long (default FIRST_RUN_SPREAD_MS) */
  firstRunSpreadMs?: number;
  /** the batch after a `checks` message waits this long at most for every first evaluation */
  initialReportWaitMs?: number;
};

type Entry = {
  check: AgentCheck;
  /** what makes a check the same check: type, settings, interval and failure count */
  key: string;
  nextAt: number;
  isRunning: boolean;
  /** non-passing evaluations in a row */
  nonPassing: number;
  /** the state after the failure count; null until the first evaluation */
  state: CheckState | null;
  output: string | null;
  checkedAt: string | null;
  /** the state last put into a check_results message */
  sent: CheckState | null;
  /** reported in the next batch whatever its state (a `checks` message arrived) */
  mustReport: boolean;
};

const DEFAULT_INITIAL_REPORT_WAIT_MS = 60_000;

const keyOf = (c: AgentCheck) => JSON.stringify([c.type, c.config, c.intervalSeconds, c.failuresBeforeAlert]);

/** The state a check reports after an evaluation, given its non-passing run so far. */
export function hysteresis(
  nonPassing: number,
  evaluation: CheckEvaluation,
  failuresBeforeAlert: number,
): { nonPassing: number; state: CheckState } {
  if (evaluation.state === 'passing') {
    return { nonPassing: 0, state: 'passing' };
  }
  const run = nonPassing + 1;
  return { nonPassing: run, state: run >= failuresBeforeAlert ? evaluation.state : 'passing' };
}

const trimOutput = (text: string) => {
  const t = text.trim();
  return t.length > CHECK_OUTPUT_MAX ? `${t.slice(0, CHECK_OUTPUT_MAX - 3)}...` : t;
};

export class CheckScheduler {
  private entries = new Map<number, Entry>();
  /** no entry is due before this (a tick before it costs one comparison) */
  private wakeAt = Infinity;
  /** the batch owed after a `checks` message, until every check has been evaluated or the wait ends */
  private initialUntil: number | null = null;
  private readonly random: () => number;

  constructor(private readonly options: SchedulerOptions) {
    this.random = options.random ?? Math.random;
  }

  get size() {
    return this.entries.size;
  }

  /** A `checks` message: the new set replaces the old one; unchanged checks keep state and schedule. */
  replace(checks: readonly AgentCheck[], now: number) {
    const next = new Map<number, Entry>();
    const spread = this.options.firstRunSpreadMs ?? FIRST_RUN_SPREAD_MS;
    for (const check of checks) {
      const key = keyOf(check);
      const kept = this.entries.get(check.id);
      if (kept && kept.key === key) {
        kept.check = check;
        kept.mustReport = true;
        next.set(check.id, kept);
        continue;
      }
      next.set(check.id, {
        check,
        key,
        nextAt: now + Math.floor(this.random() * spread),
        isRunning: false,
        nonPassing: 0,
        state: null,
        output: null,
        checkedAt: null,
        sent: null,
        mustReport: true,
      });
    }
    // checks that left the set stop at once: a result still on its way is dropped (settle())
    this.entries = next;
    this.initialUntil = now + (this.options.initialReportWaitMs ?? DEFAULT_INITIAL_REPORT_WAIT_MS);
    this.wakeAt = now;
  }

  /** Starts the checks that are due and sends what changed. */
  tick(now: number) {
    if (now < this.wakeAt) {
      return;
    }
    let wakeAt = Infinity;
    for (const entry of this.entries.values()) {
      if (!entry.isRunning && now >= entry.nextAt) {
        this.run(entry, now);
      }
      if (!entry.isRunning) {
        wakeAt = Math.min(wakeAt, entry.nextAt);
      }
    }
    this.wakeAt = this.initialUntil === null ? wakeAt : Math.min(wakeAt, this.initialUntil);
    this.flush(now);
  }

  stop() {
    this.entries = new Map();
    this.wakeAt = Infinity;
    this.initialUntil = null;
  }

  private run(entry: Entry, now: number) {
    entry.nextAt = now + entry.check.intervalSeconds * 1000;
    let evaluation: CheckEvaluation | Promise<CheckEvaluation>;
    try {
      evaluation = this.options.evaluate(entry.check, now);
    } catch (err) {
      evaluation = { state: 'failing', output: errorText(err) };
    }
    if (!(evaluation instanceof Promise)) {
      this.settle(entry, evaluation, now);
      return;
    }
    entry.isRunning = true;
    evaluation
      .catch((err: unknown): CheckEvaluation => ({ state: 'failing', output: errorText(err) }))
      .then((e) => {
        entry.isRunning = false;
        const at = Date.now();
        this.settle(entry, e, Math.max(now, at));
        // the next tick sends what changed (and starts the check again if it is already due)
        this.wakeAt = 0;
      })
      .catch(() => undefined);
  }

  private settle(entry: Entry, evaluation: CheckEvaluation, now: number) {
    if (this.entries.get(entry.check.id) !== entry) {
      return; // the check left the set (or changed) while it ran
    }
    const threshold = entry.check.failuresBeforeAlert;
    const next = hysteresis(entry.nonPassing, evaluation, threshold);
    entry.nonPassing = next.nonPassing;
    entry.state = next.state;
    const pending =
      evaluation.state !== 'passing' && next.state === 'passing'
        ? ` (${next.nonPassing} of ${threshold} failed evaluations before it counts)`
        : '';
    entry.output = trimOutput(evaluation.output + pending);
    entry.checkedAt = new Date(now).toISOString();
  }

  private flush(now: number) {
    if (this.initialUntil !== null) {
      const isWaiting = [...this.entries.values()].some((e) => e.mustReport && e.state === null);
      if (isWaiting && now < this.initialUntil) {
        return;
      }
      this.initialUntil = null;
    }
    const results: CheckResult[] = [];
    for (const e of this.entries.values()) {
      if (e.state === null || (!e.mustReport && e.state === e.sent)) {
        continue;
      }
      results.push({ checkId: e.check.id, state: e.state, output: e.output, checkedAt: e.checkedAt! });
      e.sent = e.state;
      e.mustReport = false;
    }
    for (let i = 0; i < results.length; i += CHECKS_PER_DEVICE_MAX) {
      this.options.send(results.slice(i, i + CHECKS_PER_DEVICE_MAX));
    }
  }
}

export function errorText(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
