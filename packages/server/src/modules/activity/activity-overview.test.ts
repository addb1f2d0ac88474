import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { DeviceActivityRow, PagedOverviewQuery } from '@outpost/contract/activity';
import { ACTIVITY_SORT_KEYS, deviceLabel, siteLabel, utilizationBand } from '@outpost/contract/activity';
import { OverviewSnapshot, finishAtOnce, sortByName, sortInSteps, summarize } from './activity-overview';

// docs/product/activity.md#device-activity-overview — filters, sorting and the counters and cards of the Device Activity
// page, now answered a page at a time on the server (docs/decisions/2026-11-26-device-activity-overview.md).

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

const query = (patch: Partial<PagedOverviewQuery> = {}): PagedOverviewQuery => ({
  page: 1,
  limit: 50,
  search: '',
  utilization: null,
  sessions: null,
  sort: 'utilization_30d',
  order: 'desc',
  ...patch,
});

const ids = (snapshot: OverviewSnapshot, patch: Partial<PagedOverviewQuery> = {}) =>
  snapshot.page(query(patch)).data.map((r) => r.agent_id);

// What the web page did on the loaded rows before the paged call: the reference the server keeps.
const compareText = (a: string, b: string) =>
  a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
function referenceRows(rows: DeviceActivityRow[], q: PagedOverviewQuery): DeviceActivityRow[] {
  const term = q.search.trim().toLowerCase();
  const shown = rows.filter(
    (r) =>
      (!term ||
        deviceLabel(r).toLowerCase().includes(term) ||
        (r.site_name ?? '').toLowerCase().includes(term)) &&
      (!q.utilization || utilizationBand(r.utilization_30d) === q.utilization) &&
      (!q.sessions || (q.sessions === 'active') === r.login_sessions_today > 0),
  );
  const value = (r: DeviceActivityRow): number | string => {
    switch (q.sort) {
      case 'device':
        return deviceLabel(r);
      case 'site':
        return siteLabel(r);
      case 'sessions':
        return r.login_sessions_today;
      case 'utilization_7d':
      case 'utilization_14d':
      case 'utilization_30d':
        return r[q.sort];
    }
  };
  const sign = q.order === 'asc' ? 1 : -1;
  return shown.sort((a, b) => {
    const [x, y] = [value(a), value(b)];
    const primary = typeof x === 'string' ? compareText(x, y as string) : x - (y as number);
    return sign * primary || compareText(deviceLabel(a), deviceLabel(b)) || a.agent_id - b.agent_id;
  });
}

describe('sorting (docs/product/activity.md#device-activity-overview)', () => {
  const rows = [
    row(1, { utilization_30d: 40, device_name: 'beta', site_name: null, login_sessions_today: 3 }),
    row(2, { utilization_30d: 95, device_name: 'Alpha', site_name: 'Zurich', login_sessions_today: 0 }),
    row(3, { utilization_30d: 10, device_name: null, site_name: 'Amsterdam', login_sessions_today: 7 }),
  ];
  const snapshot = OverviewSnapshot.of(rows);

  it('sorts numbers and names both ways, with the fallbacks', () => {
    expect(ids(snapshot)).toEqual([2, 1, 3]);
    expect(ids(snapshot, { order: 'asc' })).toEqual([3, 1, 2]);
    expect(ids(snapshot, { sort: 'sessions' })).toEqual([3, 1, 2]);
    // 'Alpha' < 'beta' < 'Device 3' case-insensitively
    expect(ids(snapshot, { sort: 'device', order: 'asc' })).toEqual([2, 1, 3]);
    expect(ids(snapshot, { sort: 'device', order: 'desc' })).toEqual([3, 1, 2]);
    // 'Amsterdam' < 'No site' < 'Zurich'
    expect(ids(snapshot, { sort: 'site', order: 'asc' })).toEqual([3, 1, 2]);
    expect(ids(snapshot, { sort: 'site', order: 'desc' })).toEqual([2, 1, 3]);
  });

  it('breaks ties by device name, then id, whichever the direction', () => {
    const tied = OverviewSnapshot.of([
      row(5, { device_name: 'b' }),
      row(4, { device_name: 'a' }),
      row(6, { device_name: 'A' }),
      row(7, { device_name: 'a', site_name: 'Aachen' }),
    ]);
    expect(ids(tied)).toEqual([4, 6, 7, 5]);
    expect(ids(tied, { order: 'asc' })).toEqual([4, 6, 7, 5]);
    // equal names (case-insensitively) keep the id order in both directions
    expect(ids(tied, { sort: 'device', order: 'desc' })).toEqual([5, 4, 6, 7]);
    expect(ids(tied, { sort: 'site', order: 'desc' })).toEqual([4, 6, 5, 7]);
  });

  it('a name order kept from the previous computation gives the same order as a fresh one', () => {
    const before = [row(1, { device_name: 'pc-10' }), row(2, { device_name: 'pc-2' }), row(3)];
    const first = OverviewSnapshot.of(before);
    const after = [
      row(1, { device_name: 'pc-10' }),
      row(3, { device_name: 'pc-1' }),
      row(4, { device_name: 'PC-2' }),
      row(5, { device_name: null }),
    ];
    const again = OverviewSnapshot.of(after, first);
    const fresh = OverviewSnapshot.of(after);
    const byName = (s: OverviewSnapshot) => [...s.names.order].map((i) => s.names.ids[i]);
    expect(byName(again)).toEqual(byName(fresh));
    expect(byName(again)).toEqual([5, 3, 4, 1]);
    expect(ids(again, { sort: 'device', order: 'asc' })).toEqual([5, 3, 4, 1]);
  });
});

describe('filters (docs/product/activity.md#device-activity-overview, bands 80/60/40)', () => {
  const snapshot = OverviewSnapshot.of([
    row(1, {
      device_name: 'Reception-PC',
      site_name: 'Berlin HQ',
      utilization_30d: 85,
      login_sessions_today: 2,
    }),
    row(2, { device_name: 'Lab-01', site_name: 'Berlin Lab', utilization_30d: 80 }),
    row(3, { device_name: 'Kiosk', site_name: 'Munich', utilization_30d: 79.9, login_sessions_today: 1 }),
    row(4, { device_name: 'Server', site_name: null, utilization_30d: 60 }),
    row(5, { device_name: 'Spare', site_name: 'Munich', utilization_30d: 59.9 }),
    row(6, { device_name: null, site_name: 'Hamburg', utilization_30d: 40, login_sessions_today: 4 }),
    row(7, { device_name: 'Old-Laptop', site_name: 'Hamburg', utilization_30d: 39.9 }),
  ]);
  const f = (patch: Partial<PagedOverviewQuery>) => ids(snapshot, { sort: 'device', order: 'asc', ...patch });

  it('searches the name as shown or the site name, case-insensitively', () => {
    expect(f({ search: 'berlin' })).toEqual([2, 1]);
    expect(f({ search: 'KIOSK' })).toEqual([3]);
    expect(f({ search: 'device 6' })).toEqual([6]);
    // 'No site' is a label, not a site name
    expect(f({ search: 'no site' })).toEqual([]);
  });

  it('filters by the band of the 30-day utilisation and by sessions today, combined', () => {
    expect(f({ utilization: 'high' })).toEqual([2, 1]);
    expect(f({ utilization: 'good' })).toEqual([3, 4]);
    expect(f({ utilization: 'moderate' })).toEqual([6, 5]);
    expect(f({ utilization: 'low' })).toEqual([7]);
    expect(f({ sessions: 'active' })).toEqual([6, 3, 1]);
    expect(f({ sessions: 'inactive' })).toEqual([2, 7, 4, 5]);
    expect(f({ search: 'berlin', utilization: 'high', sessions: 'inactive' })).toEqual([2]);
  });

  it('counts what matches in pagination and keeps the whole scope in the summary', () => {
    const page = snapshot.page(query({ search: 'munich' }));
    expect(page.pagination).toEqual({ page: 1, limit: 50, total: 2, totalPages: 1 });
    expect(page.summary.total_devices).toBe(7);
  });
});

describe('pages', () => {
  const rows = Array.from({ length: 120 }, (_, i) => row(i + 1, { utilization_30d: i % 7 }));
  const snapshot = OverviewSnapshot.of(rows);

  it('slices the sorted rows; a page past the last is empty', () => {
    const all = referenceRows(rows, query()).map((r) => r.agent_id);
    expect(ids(snapshot, { page: 1 })).toEqual(all.slice(0, 50));
    expect(ids(snapshot, { page: 3 })).toEqual(all.slice(100));
    expect(snapshot.page(query({ page: 3 })).pagination).toEqual({
      page: 3,
      limit: 50,
      total: 120,
      totalPages: 3,
    });
    expect(ids(snapshot, { page: 4 })).toEqual([]);
    expect(ids(snapshot, { page: 2, limit: 100 })).toEqual(all.slice(100));
  });

  it('property: every page equals the web page’s filter, sort and slice of the loaded rows', () => {
    const arbRow = fc.record({
      device_name: fc.option(fc.constantFrom('pc-1', 'PC-1', 'pc-10', 'pc-2', 'Äpfel', 'apfel', 'Zed', ' '), {
        nil: null,
      }),
      site_name: fc.option(fc.constantFrom('Berlin', 'berlin', 'Munich', 'Zurich'), { nil: null }),
      login_sessions_today: fc.integer({ min: 0, max: 3 }),
      utilization_7d: fc.constantFrom(0, 39.9, 40, 60, 80, 100),
      utilization_14d: fc.constantFrom(0, 50, 100),
      utilization_30d: fc.constantFrom(0, 39.9, 40, 59.9, 60, 79.9, 80, 100),
    });
    fc.assert(
      fc.property(
        fc.array(arbRow, { maxLength: 40 }),
        fc.record({
          page: fc.integer({ min: 1, max: 4 }),
          limit: fc.integer({ min: 1, max: 12 }),
          // unfiltered more often than not, so that equal names meet in the order
          search: fc.constantFrom('', '', '', 'pc', 'BERLIN', 'device', 'äpf', 'zz'),
          utilization: fc.constantFrom(null, null, null, null, 'high', 'good', 'moderate', 'low'),
          sessions: fc.constantFrom(null, null, null, 'active', 'inactive'),
          sort: fc.constantFrom(...ACTIVITY_SORT_KEYS),
          order: fc.constantFrom('asc', 'desc'),
        }),
        (shapes, q) => {
          const rows = shapes.map((s, i) => row(i + 1, s));
          // half the time through a previous computation's name order: some devices gone since,
          // some renamed, some new
          const previous = OverviewSnapshot.of(
            rows
              .filter((r) => r.agent_id % 3 !== 0)
              .map((r) => (r.agent_id % 4 === 0 ? { ...r, device_name: 'pc-5' } : r)),
          );
          const snapshot = OverviewSnapshot.of(rows, q.page % 2 ? previous : undefined);
          const expected = referenceRows(rows, q);
          const from = (q.page - 1) * q.limit;
          const page = snapshot.page(q);
          expect(page.data.map((r) => r.agent_id)).toEqual(
            expected.slice(from, from + q.limit).map((r) => r.agent_id),
          );
          expect(page.pagination.total).toBe(expected.length);
          // and the whole order at once
          const whole = snapshot.page({ ...(q as PagedOverviewQuery), page: 1, limit: 100 });
          expect(whole.data.map((r) => r.agent_id)).toEqual(expected.map((r) => r.agent_id));
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('summary (docs/product/activity.md#device-activity-overview counters and cards)', () => {
  it('counts devices per band, today and averages over every row', () => {
    const s = summarize([
      row(1, { utilization_7d: 90, utilization_14d: 85, utilization_30d: 80, login_sessions_today: 3 }),
      row(2, { utilization_7d: 50, utilization_14d: 60, utilization_30d: 65, login_sessions_today: 2 }),
      row(3, { utilization_7d: 10, utilization_14d: 20, utilization_30d: 30 }),
      row(4, { utilization_7d: 0, utilization_14d: 0, utilization_30d: 0 }),
    ]);
    expect(s).toEqual({
      total_devices: 4,
      active_today: 2,
      inactive_today: 2,
      total_sessions_today: 5,
      high_utilization_30d: 1,
      distribution: [
        { band: 'high', count: 1 },
        { band: 'good', count: 1 },
        { band: 'moderate', count: 0 },
        { band: 'low', count: 2 },
      ],
      average_utilization: { utilization_7d: 37.5, utilization_14d: 41.25, utilization_30d: 43.75 },
    });
  });

  it('is all zeros without devices', () => {
    const s = summarize([]);
    expect(s.total_devices).toBe(0);
    expect(s.distribution.every((d) => d.count === 0)).toBe(true);
    expect(s.average_utilization.utilization_30d).toBe(0);
  });
});

describe('name order', () => {
  it('merges new and renamed devices into the kept order', () => {
    const previous = {
      ids: Int32Array.from([1, 2, 3]),
      labels: ['b', 'a', 'c'],
      order: Int32Array.from([1, 0, 2]),
    };
    // device 2 renamed, device 4 new
    const ids = Int32Array.from([1, 2, 3, 4]);
    const labels = ['b', 'd', 'c', 'a'];
    expect([...finishAtOnce(sortByName(ids, labels, previous))]).toEqual([3, 0, 2, 1]);
    expect([...finishAtOnce(sortByName(ids, labels))]).toEqual([3, 0, 2, 1]);
    // rows not in id order are sorted afresh
    expect([...finishAtOnce(sortByName(Int32Array.from([2, 1]), ['x', 'x'], previous))]).toEqual([1, 0]);
  });

  it('sorts in pieces with pauses between them, merging to one order', () => {
    const values = Array.from({ length: 30_000 }, (_, i) => (i * 7919) % 10_007);
    const steps = sortInSteps(
      Int32Array.from(values, (_, i) => i),
      (a, b) => values[a]! - values[b]! || a - b,
    );
    let pauses = 0;
    let next = steps.next();
    while (!next.done) {
      pauses += 1;
      next = steps.next();
    }
    expect(pauses).toBeGreaterThan(3);
    const sorted = [...next.value].map((i) => values[i]!);
    expect(sorted).toEqual([...values].sort((a, b) => a - b));
  });
});
