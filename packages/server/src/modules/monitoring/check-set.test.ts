import { describe, expect, it } from 'vitest';
import { CHECKS_PER_DEVICE_MAX } from '@outpost/contract/checks';
import type { CheckConfig } from '@outpost/contract/checks';
import { checksMessage, effectiveChecks } from './check-set';
import type { CheckRow } from './monitoring.queries';

// docs/product/monitoring.md#monitoring-policies: the union of a device's policies' checks, the
// same check (settings, interval, failures) once, the oldest id kept, a stable revision.

let nextId = 1;
function check(config: CheckConfig, over: Partial<CheckRow> = {}): { check: CheckRow } {
  return {
    check: {
      id: nextId++,
      tenantId: 1,
      policyId: 1,
      position: 0,
      name: 'c',
      config,
      intervalSeconds: 60,
      failuresBeforeAlert: 1,
      severity: 'warning',
      ...over,
    },
  };
}

describe('effective check set', () => {
  it('keeps one of two identical checks, the lowest id, whatever the key order of the config', () => {
    const newer = check({ type: 'cpu', percent: 90, minutes: 5 }, { id: 20, policyId: 1 });
    const older = check({ minutes: 5, percent: 90, type: 'cpu' }, { id: 10, policyId: 2 });
    const other = check({ type: 'cpu', percent: 90, minutes: 5 }, { id: 30, intervalSeconds: 120 });
    const set = effectiveChecks([newer, older, other]);
    expect(set.map((r) => r.check.id)).toEqual([10, 30]);
  });

  it('differs in failures or settings: two checks', () => {
    const a = check({ type: 'memory', percent: 80 });
    const b = check({ type: 'memory', percent: 80 }, { failuresBeforeAlert: 3 });
    const c = check({ type: 'memory', percent: 81 });
    expect(effectiveChecks([a, b, c])).toHaveLength(3);
  });

  it('runs at most CHECKS_PER_DEVICE_MAX checks', () => {
    const rows = Array.from({ length: CHECKS_PER_DEVICE_MAX + 5 }, (_, i) =>
      check({ type: 'port', host: 'localhost', port: i + 1, timeout_ms: 3000 }),
    );
    expect(effectiveChecks(rows)).toHaveLength(CHECKS_PER_DEVICE_MAX);
  });

  it('names the same set with the same revision, another set with another', () => {
    const a = check({ type: 'service', service: 'Spooler' }, { id: 100 });
    const b = check({ type: 'event', event: 'reboot_pending' }, { id: 101 });
    const one = checksMessage([a.check, b.check]);
    expect(checksMessage([a.check, b.check]).revision).toBe(one.revision);
    expect(checksMessage([a.check]).revision).not.toBe(one.revision);
    expect(one.checks[0]).toEqual({
      id: 100,
      type: 'service',
      config: { type: 'service', service: 'Spooler' },
      intervalSeconds: 60,
      failuresBeforeAlert: 1,
    });
  });
});
