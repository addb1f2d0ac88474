import { createHash } from 'node:crypto';
import { CHECKS_PER_DEVICE_MAX } from '@outpost/contract/checks';
import type { AgentCheck, ChecksMessage } from '@outpost/contract/agent-protocol';
import type { CheckRow } from './monitoring.queries';

// A device's check set (docs/product/monitoring.md#monitoring-policies): the union of the checks
// of its enabled policies, a check reached twice (same settings, interval and failures) once, at
// most CHECKS_PER_DEVICE_MAX (docs/decisions/2026-11-27-monitoring-policies.md "Dedupe").

/** A value's JSON with object keys in one order (jsonb gives them back in its own). */
function canonical(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(canonical).join(',')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** What makes two checks the same check for the agent. */
export const sameCheckKey = (c: Pick<CheckRow, 'config' | 'intervalSeconds' | 'failuresBeforeAlert'>) =>
  canonical([c.config, c.intervalSeconds, c.failuresBeforeAlert]);

/**
 * The checks a device runs, from its policies' checks (in policy, position order): of identical
 * checks the one with the lowest id stays (the oldest: its id, and so its state, does not change
 * when another policy adds the same check); then the first CHECKS_PER_DEVICE_MAX in that order.
 */
export function effectiveChecks<T extends { check: CheckRow }>(rows: readonly T[]): T[] {
  const byKey = new Map<string, T>();
  for (const row of rows) {
    const key = sameCheckKey(row.check);
    const held = byKey.get(key);
    if (!held || row.check.id < held.check.id) {
      byKey.set(key, row);
    }
  }
  const winners = new Set([...byKey.values()]);
  return rows.filter((r) => winners.has(r)).slice(0, CHECKS_PER_DEVICE_MAX);
}

export function toAgentCheck(c: CheckRow): AgentCheck {
  return {
    id: c.id,
    type: c.config.type,
    config: c.config,
    intervalSeconds: c.intervalSeconds,
    failuresBeforeAlert: c.failuresBeforeAlert,
  };
}

/** The `checks` message: the set and its revision, a hash of the set (the same set, the same name). */
export function checksMessage(checks: readonly CheckRow[]): ChecksMessage {
  const list = checks.map(toAgentCheck);
  const revision = createHash('sha256').update(canonical(list)).digest('hex').slice(0, 32);
  return { type: 'checks', revision, checks: list };
}
