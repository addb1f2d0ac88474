import { describe, expect, it } from 'vitest';
import type { Alert } from '@outpost/contract/alerts';
import {
  NO_ALERT_FILTERS,
  alertListParams,
  maintenanceMinutes,
  maintenanceText,
  navBadgeOf,
  resolutionOf,
  worstSeverity,
} from './alert-view';

describe('alert view helpers (docs/product/monitoring.md#the-alerts-page)', () => {
  it('orders severities: critical over warning over info', () => {
    expect(worstSeverity(['info', 'critical', 'warning'])).toBe('critical');
    expect(worstSeverity(['info', 'warning'])).toBe('warning');
    expect(worstSeverity(['info'])).toBe('info');
    expect(worstSeverity([])).toBeNull();
  });

  it('builds the list query from the chosen filters only', () => {
    expect(alertListParams(NO_ALERT_FILTERS, 1, 50)).toEqual({ state: 'active', page: 1, page_size: 50 });
    expect(
      alertListParams(
        {
          state: 'resolved',
          severity: 'critical',
          condition: 'offline',
          site: '3',
          group: '7',
          device: 'g-1',
        },
        2,
        20,
      ),
    ).toEqual({
      state: 'resolved',
      severity: 'critical',
      condition: 'offline',
      device: 'g-1',
      site_id: 3,
      group_id: 7,
      page: 2,
      page_size: 20,
    });
    // a site or group that is not an id is left out rather than sent
    expect(alertListParams({ ...NO_ALERT_FILTERS, site: 'x', group: '0' }, 1, 50)).not.toHaveProperty(
      'site_id',
    );
  });

  it('shows the navigation badge for open alerts, red with a critical one', () => {
    expect(navBadgeOf(undefined)).toBeNull();
    expect(navBadgeOf({ open: { info: 0, warning: 0, critical: 0 }, acknowledged: 4 })).toBeNull();
    expect(navBadgeOf({ open: { info: 1, warning: 2, critical: 0 }, acknowledged: 0 })).toEqual({
      count: 3,
      isCritical: false,
    });
    expect(navBadgeOf({ open: { info: 0, warning: 0, critical: 1 }, acknowledged: 0 })?.isCritical).toBe(
      true,
    );
  });

  it('turns the duration presets and a custom amount into minutes within bounds', () => {
    expect(maintenanceMinutes('30m', '', 'hours')).toEqual({ minutes: 30 });
    expect(maintenanceMinutes('1h', '', 'hours')).toEqual({ minutes: 60 });
    expect(maintenanceMinutes('4h', '', 'hours')).toEqual({ minutes: 240 });
    expect(maintenanceMinutes('1d', '', 'hours')).toEqual({ minutes: 1440 });
    expect(maintenanceMinutes('custom', '2', 'hours')).toEqual({ minutes: 120 });
    expect(maintenanceMinutes('custom', '3', 'days')).toEqual({ minutes: 4320 });
    expect(maintenanceMinutes('custom', '4', 'minutes')).toHaveProperty('error');
    expect(maintenanceMinutes('custom', '31', 'days')).toHaveProperty('error');
    expect(maintenanceMinutes('custom', '', 'minutes')).toHaveProperty('error');
  });

  it('says whose maintenance it is and why', () => {
    const until = '2026-11-27T10:00:00Z';
    const device = maintenanceText({ until, reason: 'Disk swap', set_by: 'Ann', scope: 'device' });
    expect(device.title).toMatch(/^In maintenance until /);
    expect(device.detail).toBe('Disk swap, by Ann');
    const site = maintenanceText({ until, reason: null, set_by: null, scope: 'site' });
    expect(site.title).toMatch(/^Site in maintenance until /);
    expect(site.detail).toBeNull();
  });

  it('tells who resolved an alert, or that it resolved by itself', () => {
    const base = { state: 'resolved', resolved_by: null } as Alert;
    expect(resolutionOf(base)).toBe('Resolved by itself');
    expect(resolutionOf({ ...base, resolved_by: 'Ann' })).toBe('Resolved by Ann');
    expect(resolutionOf({ ...base, state: 'open' })).toBeNull();
  });
});
