import { describe, expect, it } from 'vitest';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { DeviceUpdatePayload } from '@outpost/contract/live';
import { applyDeviceUpdate, asDeviceUpdate, overlayUpdates } from './use-live-devices';

const row = (guid: string, status: DeviceListItem['status'], lastSeen: string) =>
  ({ device_guid: guid, status, last_seen: lastSeen, hostname: guid.toUpperCase() }) as DeviceListItem;
const update = (
  guid: string,
  status: DeviceUpdatePayload['status'],
  lastSeen: string,
): DeviceUpdatePayload => ({
  deviceId: guid,
  id: 1,
  status,
  lastSeen,
});

describe('live device rows', () => {
  it('reads only device_update events', () => {
    expect(
      asDeviceUpdate({ type: 'device_update', payload: update('a', 'offline', '2026-11-22T10:00:00Z') }),
    ).not.toBeNull();
    expect(asDeviceUpdate({ type: 'deployment_update', payload: { deploymentId: 1 } })).toBeNull();
  });

  it('applies status and last seen in place', () => {
    const r = applyDeviceUpdate(
      row('a', 'online', '2026-11-22T10:00:00Z'),
      update('a', 'offline', '2026-11-22T10:05:00Z'),
    );
    expect(r).toMatchObject({ status: 'offline', last_seen: '2026-11-22T10:05:00Z', hostname: 'A' });
  });

  it('keeps a newer live status over a page fetched before it, but not an older one', () => {
    const page = {
      data: [row('a', 'online', '2026-11-22T10:00:00Z'), row('b', 'online', '2026-11-22T10:10:00Z')],
    };
    const updates = new Map([
      ['a', update('a', 'offline', '2026-11-22T10:05:00Z')], // newer than the row: wins
      ['b', update('b', 'offline', '2026-11-22T10:01:00Z')], // older than the row: the page wins
    ]);
    const result = overlayUpdates(page, updates, true);
    expect(result.data.map((d) => d.status)).toEqual(['offline', 'online']);
    expect(overlayUpdates(page, new Map(), true)).toBe(page);
  });

  it('settles: an update with no last seen never overrides a fetched row, and re-applying changes nothing', () => {
    const never = { ...row('c', 'online', ''), last_seen: null } as unknown as DeviceListItem;
    const page = { data: [never, row('d', 'online', '2026-11-22T10:00:00Z')] };
    const noTime = {
      deviceId: 'c',
      id: 3,
      status: 'offline',
      lastSeen: null,
    } as unknown as DeviceUpdatePayload;
    expect(overlayUpdates(page, new Map([['c', noTime]]), true)).toBe(page);
    // applied once while live (not only newer), then again after a fetch: the second is a no-op
    const live = new Map([['d', update('d', 'offline', '2026-11-22T10:05:00Z')]]);
    const once = overlayUpdates(page, live, false);
    expect(once).not.toBe(page);
    expect(overlayUpdates(once, live, true)).toBe(once);
    expect(overlayUpdates(once, live, false)).toBe(once);
  });
});
