import { describe, expect, it } from 'vitest';
import type { ActivityOverviewSummary } from '@outpost/contract/activity';
import { deviceLabel, siteLabel } from '@outpost/contract/activity';
import { DEFAULT_SORT, bandShares, barWidth, formatUtilization, nextSort } from './overview';

// The rules the page keeps itself; filtering, sorting and the summary are the server's
// (packages/server/src/modules/activity/activity-overview.test.ts).

describe('sorting (docs/product/activity.md#device-activity-overview)', () => {
  it('defaults to 30-day utilisation, descending', () => {
    expect(DEFAULT_SORT).toEqual({ key: 'utilization_30d', direction: 'desc' });
  });

  it('toggles the active column and sorts another column descending', () => {
    const byDevice = nextSort(DEFAULT_SORT, 'device');
    expect(byDevice).toEqual({ key: 'device', direction: 'desc' });
    expect(nextSort(byDevice, 'device')).toEqual({ key: 'device', direction: 'asc' });
    expect(nextSort(nextSort(byDevice, 'device'), 'device')).toEqual({ key: 'device', direction: 'desc' });
    expect(nextSort(DEFAULT_SORT, 'utilization_30d')).toEqual({ key: 'utilization_30d', direction: 'asc' });
    // from an ascending column to another: descending again
    expect(nextSort({ key: 'site', direction: 'asc' }, 'sessions')).toEqual({
      key: 'sessions',
      direction: 'desc',
    });
  });
});

describe('distribution (docs/product/activity.md#device-activity-overview Utilization Distribution (30d))', () => {
  const summary = (counts: number[]): ActivityOverviewSummary => ({
    total_devices: counts.reduce((a, b) => a + b, 0),
    active_today: 0,
    inactive_today: 0,
    total_sessions_today: 0,
    high_utilization_30d: counts[0]!,
    distribution: (['high', 'good', 'moderate', 'low'] as const).map((band, i) => ({
      band,
      count: counts[i]!,
    })),
    average_utilization: { utilization_7d: 0, utilization_14d: 0, utilization_30d: 0 },
  });

  it('gives each band its count and share of all devices, with the spec labels', () => {
    expect(bandShares(summary([1, 1, 0, 2])).map((d) => [d.key, d.label, d.count, d.share])).toEqual([
      ['high', 'High (80%+)', 1, 25],
      ['good', 'Good (60-79%)', 1, 25],
      ['moderate', 'Moderate (40-59%)', 0, 0],
      ['low', 'Low (<40%)', 2, 50],
    ]);
  });

  it('is all zeros without devices', () => {
    expect(bandShares(summary([0, 0, 0, 0])).every((d) => d.count === 0 && d.share === 0)).toBe(true);
  });
});

describe('labels and bars', () => {
  it('falls back to Device {agent_id} and No site', () => {
    expect(deviceLabel({ agent_id: 42, device_name: null })).toBe('Device 42');
    expect(deviceLabel({ agent_id: 42, device_name: '  ' })).toBe('Device 42');
    expect(deviceLabel({ agent_id: 42, device_name: 'PC-42' })).toBe('PC-42');
    expect(siteLabel({ site_name: null })).toBe('No site');
    expect(siteLabel({ site_name: 'Berlin' })).toBe('Berlin');
  });

  it('shows one decimal and caps bars at 100 %', () => {
    expect(formatUtilization(72.46)).toBe('72.5%');
    expect(formatUtilization(0)).toBe('0.0%');
    expect(barWidth(130)).toBe(100);
    expect(barWidth(-5)).toBe(0);
    expect(barWidth(55.5)).toBe(55.5);
  });
});
