import { describe, expect, it } from 'vitest';
import type { DeviceActivityRow } from '@outpost/contract/activity';
import {
  DEFAULT_SORT,
  NO_FILTERS,
  barWidth,
  deviceLabel,
  filterRows,
  formatUtilization,
  hasActiveFilters,
  nextSort,
  siteLabel,
  sortRows,
  summarize,
} from './overview';

const row = (agent_id: number, patch: Partial<DeviceActivityRow> = {}): DeviceActivityRow => ({
  agent_id,
  device_guid: `guid-${agent_id}`,
  device_name: `PC-${agent_id}`,
  site_name: 'Berlin',
  login_sessions_today: 0,
  utilization_7d: 0,
  utilization_14d: 0,
  utilization_30d: 0,
  ...patch,
});

const ids = (rows: DeviceActivityRow[]) => rows.map((r) => r.agent_id);

describe('sorting (spec: operations §2.11)', () => {
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

  it('sorts numbers and names both ways, with the fallbacks', () => {
    const rows = [
      row(1, { utilization_30d: 40, device_name: 'beta', site_name: null, login_sessions_today: 3 }),
      row(2, { utilization_30d: 95, device_name: 'Alpha', site_name: 'Zurich', login_sessions_today: 0 }),
      row(3, { utilization_30d: 10, device_name: null, site_name: 'Amsterdam', login_sessions_today: 7 }),
    ];
    expect(ids(sortRows(rows, DEFAULT_SORT))).toEqual([2, 1, 3]);
    expect(ids(sortRows(rows, { key: 'utilization_30d', direction: 'asc' }))).toEqual([3, 1, 2]);
    expect(ids(sortRows(rows, { key: 'sessions', direction: 'desc' }))).toEqual([3, 1, 2]);
    // 'Alpha' < 'beta' < 'Device 3' case-insensitively
    expect(ids(sortRows(rows, { key: 'device', direction: 'asc' }))).toEqual([2, 1, 3]);
    // 'Amsterdam' < 'No site' < 'Zurich'
    expect(ids(sortRows(rows, { key: 'site', direction: 'asc' }))).toEqual([3, 1, 2]);
    expect(ids(sortRows(rows, { key: 'site', direction: 'desc' }))).toEqual([2, 1, 3]);
  });

  it('breaks ties by device name so the order is stable', () => {
    const rows = [row(5, { device_name: 'b' }), row(4, { device_name: 'a' }), row(6, { device_name: 'a' })];
    expect(ids(sortRows(rows, DEFAULT_SORT))).toEqual([4, 6, 5]);
  });

  it('does not change the list it is given', () => {
    const rows = [row(1, { utilization_30d: 1 }), row(2, { utilization_30d: 2 })];
    sortRows(rows, DEFAULT_SORT);
    expect(ids(rows)).toEqual([1, 2]);
  });
});

describe('filters (spec: operations §2.11, §4 bands 80/60/40)', () => {
  const rows = [
    row(1, {
      device_name: 'Reception-PC',
      site_name: 'Berlin HQ',
      utilization_30d: 85,
      login_sessions_today: 2,
    }),
    row(2, { device_name: 'Lab-01', site_name: 'Berlin Lab', utilization_30d: 80, login_sessions_today: 0 }),
    row(3, { device_name: 'Kiosk', site_name: 'Munich', utilization_30d: 79.9, login_sessions_today: 1 }),
    row(4, { device_name: 'Server', site_name: null, utilization_30d: 60, login_sessions_today: 0 }),
    row(5, { device_name: 'Spare', site_name: 'Munich', utilization_30d: 59.9, login_sessions_today: 0 }),
    row(6, { device_name: null, site_name: 'Hamburg', utilization_30d: 40, login_sessions_today: 4 }),
    row(7, {
      device_name: 'Old-Laptop',
      site_name: 'Hamburg',
      utilization_30d: 39.9,
      login_sessions_today: 0,
    }),
  ];
  const f = (patch: Partial<typeof NO_FILTERS>) => ids(filterRows(rows, { ...NO_FILTERS, ...patch }));

  it('keeps everything without filters', () => {
    expect(f({})).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(hasActiveFilters(NO_FILTERS)).toBe(false);
    expect(hasActiveFilters({ ...NO_FILTERS, search: '   ' })).toBe(false);
  });

  it('searches device or site names, case-insensitively', () => {
    expect(f({ search: 'berlin' })).toEqual([1, 2]);
    expect(f({ search: 'KIOSK' })).toEqual([3]);
    expect(f({ search: '  munich ' })).toEqual([3, 5]);
    // the fallback name is what the user sees, so it matches too
    expect(f({ search: 'device 6' })).toEqual([6]);
    // 'No site' is a label, not a site name
    expect(f({ search: 'no site' })).toEqual([]);
  });

  it('filters by the band of the 30-day utilisation at the 80/60/40 edges', () => {
    expect(f({ utilization: 'high' })).toEqual([1, 2]);
    expect(f({ utilization: 'good' })).toEqual([3, 4]);
    expect(f({ utilization: 'moderate' })).toEqual([5, 6]);
    expect(f({ utilization: 'low' })).toEqual([7]);
  });

  it('filters by sessions today', () => {
    expect(f({ sessions: 'active' })).toEqual([1, 3, 6]);
    expect(f({ sessions: 'inactive' })).toEqual([2, 4, 5, 7]);
  });

  it('combines search, utilisation and sessions', () => {
    expect(f({ search: 'berlin', utilization: 'high', sessions: 'active' })).toEqual([1]);
    expect(f({ search: 'berlin', utilization: 'high', sessions: 'inactive' })).toEqual([2]);
    expect(f({ search: 'hamburg', sessions: 'inactive' })).toEqual([7]);
    expect(f({ search: 'munich', utilization: 'low' })).toEqual([]);
    expect(hasActiveFilters({ ...NO_FILTERS, sessions: 'active' })).toBe(true);
  });
});

describe('summary (spec: operations §2.11 counters and cards)', () => {
  it('counts devices per band, today and averages', () => {
    const s = summarize([
      row(1, { utilization_7d: 90, utilization_14d: 85, utilization_30d: 80, login_sessions_today: 3 }),
      row(2, { utilization_7d: 50, utilization_14d: 60, utilization_30d: 65, login_sessions_today: 2 }),
      row(3, { utilization_7d: 10, utilization_14d: 20, utilization_30d: 30 }),
      row(4, { utilization_7d: 0, utilization_14d: 0, utilization_30d: 0 }),
    ]);
    expect(s.total).toBe(4);
    expect(s.activeToday).toBe(2);
    expect(s.inactiveToday).toBe(2);
    expect(s.totalSessionsToday).toBe(5);
    expect(s.highUtilization30d).toBe(1);
    expect(s.distribution.map((d) => [d.key, d.count, d.share])).toEqual([
      ['high', 1, 25],
      ['good', 1, 25],
      ['moderate', 0, 0],
      ['low', 2, 50],
    ]);
    expect(s.averages).toEqual({ utilization_7d: 37.5, utilization_14d: 41.25, utilization_30d: 43.75 });
  });

  it('is all zeros without devices', () => {
    const s = summarize([]);
    expect(s.total).toBe(0);
    expect(s.distribution.every((d) => d.count === 0 && d.share === 0)).toBe(true);
    expect(s.averages.utilization_30d).toBe(0);
  });
});

describe('labels and bars', () => {
  it('falls back to Device {agent_id} and No site', () => {
    expect(deviceLabel(row(42, { device_name: null }))).toBe('Device 42');
    expect(deviceLabel(row(42, { device_name: '  ' }))).toBe('Device 42');
    expect(deviceLabel(row(42))).toBe('PC-42');
    expect(siteLabel(row(1, { site_name: null }))).toBe('No site');
    expect(siteLabel(row(1))).toBe('Berlin');
  });

  it('shows one decimal and caps bars at 100 %', () => {
    expect(formatUtilization(72.46)).toBe('72.5%');
    expect(formatUtilization(0)).toBe('0.0%');
    expect(barWidth(130)).toBe(100);
    expect(barWidth(-5)).toBe(0);
    expect(barWidth(55.5)).toBe(55.5);
  });
});
