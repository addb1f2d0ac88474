import { describe, expect, it } from 'vitest';
import type { AlertRow } from './alerts.queries';
import type { RouteRow } from './alert-routes.queries';
import { alertMessage, ruleMatches } from './routing';

// docs/product/monitoring.md#routing-rules

const alert = (over: Partial<AlertRow> = {}): AlertRow => ({
  id: 7,
  tenantId: 1,
  condition: 'check',
  conditionKey: 'check:3:device:9',
  title: 'Disk C: low',
  detail: 'C: 4.2 GB free of 100 GB (4 %)',
  severity: 'critical',
  state: 'open',
  deviceId: 9,
  siteId: 2,
  checkId: 3,
  jobId: null,
  firstSeenAt: new Date('2026-11-27T08:00:00Z'),
  lastSeenAt: new Date('2026-11-27T08:00:00Z'),
  occurrences: 1,
  acknowledgedAt: null,
  acknowledgedBy: null,
  acknowledgedByName: null,
  acknowledgeNote: null,
  resolvedAt: null,
  resolvedBy: null,
  resolvedByName: null,
  resolveNote: null,
  silenced: false,
  ...over,
});

const rule = (over: Partial<RouteRow> = {}): RouteRow => ({
  id: 1,
  tenantId: 1,
  name: 'Rule',
  enabled: true,
  severities: ['critical'],
  conditions: [],
  targetType: 'tenant',
  siteId: null,
  groupId: null,
  createdAt: new Date(),
  channels: [{ id: 5, name: 'Pager', enabled: true }],
  targetName: null,
  ...over,
});

describe('routing rules', () => {
  it('match by severity, condition and target', () => {
    expect(ruleMatches(rule(), alert(), new Set())).toBe(true);
    expect(ruleMatches(rule({ enabled: false }), alert(), new Set())).toBe(false);
    expect(ruleMatches(rule(), alert({ severity: 'warning' }), new Set())).toBe(false);
    expect(ruleMatches(rule({ conditions: ['offline'] }), alert(), new Set())).toBe(false);
    expect(ruleMatches(rule({ conditions: ['offline', 'check'] }), alert(), new Set())).toBe(true);
    expect(ruleMatches(rule({ targetType: 'site', siteId: 2 }), alert(), new Set())).toBe(true);
    expect(ruleMatches(rule({ targetType: 'site', siteId: 3 }), alert(), new Set())).toBe(false);
    expect(ruleMatches(rule({ targetType: 'group', groupId: 4 }), alert(), new Set([4]))).toBe(true);
    expect(ruleMatches(rule({ targetType: 'group', groupId: 4 }), alert(), new Set([8]))).toBe(false);
  });

  it('say what opened and what resolved', () => {
    expect(alertMessage(alert(), 'web-01', 'opened')).toMatchObject({
      subject: '[Critical] web-01: Disk C: low',
      severity: 'critical',
      data: { alert_id: 7, state: 'open', device: 'web-01' },
    });
    const resolved = alertMessage(
      alert({ resolveNote: 'Resolved by itself', occurrences: 3 }),
      null,
      'resolved',
    );
    expect(resolved.subject).toBe('[Resolved] Disk C: low');
    expect(resolved.text).toContain('seen 3 times');
  });
});
