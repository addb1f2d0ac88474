import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { QueryKey } from '@tanstack/react-query';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { DeviceUpdatePayload, PortalEvent } from '@outpost/contract/live';
import { deviceKey as channelKey } from '@outpost/contract/live';
import { noteDeviceStatuses } from '../../../lib/device-presence';
import { useLiveMessages, useLiveSocket, useSubscriptions } from '../../../lib/socket';

/** A device_update's payload (already checked against the contract), or null for other events. */
export function asDeviceUpdate(event: PortalEvent): DeviceUpdatePayload | null {
  return event.type === 'device_update' ? event.payload : null;
}

/** The row with the message's changes applied (docs/product/live-updates.md — status and lastSeen, in place). */
export function applyDeviceUpdate<
  T extends Pick<DeviceListItem, 'status' | 'last_seen'> & Partial<DeviceListItem>,
>(row: T, u: DeviceUpdatePayload): T {
  return {
    ...row,
    status: u.status,
    last_seen: u.lastSeen ?? row.last_seen,
    ...(u.hostname !== undefined && u.hostname !== null && { hostname: u.hostname }),
    ...(u.ipAddress !== undefined && u.ipAddress !== null && { ip_address: u.ipAddress }),
    ...(u.agentVersion !== undefined && u.agentVersion !== null && { agent_version: u.agentVersion }),
    ...(u.lastInventoryUpdate !== undefined && { last_inventory_update: u.lastInventoryUpdate }),
  };
}

/**
 * Whether a live update is newer than what a row (perhaps fetched later) says. An update without a
 * last seen time cannot be placed: the fetched row wins (answering "newer" for it against a row
 * that has none either re-applied it after every fetch, each write a new fetch time: a render loop).
 */
export function isNewer(u: DeviceUpdatePayload, row: Pick<DeviceListItem, 'last_seen'>): boolean {
  if (!u.lastSeen) {
    return false;
  }
  if (!row.last_seen) {
    return true;
  }
  return Date.parse(u.lastSeen) > Date.parse(row.last_seen);
}

const APPLIED_FIELDS = [
  'status',
  'last_seen',
  'hostname',
  'ip_address',
  'agent_version',
  'last_inventory_update',
] as const;

type Page = { data: DeviceListItem[] };

// requestAnimationFrame, or a timer where there is none (a page without rendering)
const nextFrame = (f: () => void): number =>
  typeof requestAnimationFrame === 'function' ? requestAnimationFrame(f) : Number(setTimeout(f, 16));
const cancelFrame = (id: number) =>
  typeof cancelAnimationFrame === 'function' ? cancelAnimationFrame(id) : clearTimeout(id);

/** The page with every remembered update applied that is newer than its row. */
export function overlayUpdates(
  page: Page,
  updates: Map<string, DeviceUpdatePayload>,
  onlyNewer: boolean,
): Page {
  let isChanged = false;
  const data = page.data.map((d) => {
    const u = updates.get(d.device_guid);
    if (!u || (onlyNewer && !isNewer(u, d))) {
      return d;
    }
    const applied = applyDeviceUpdate(d, u);
    if (APPLIED_FIELDS.every((f) => applied[f] === d[f])) {
      return d; // nothing it says is new: the page stays the same object, the cache is not written
    }
    isChanged = true;
    return applied;
  });
  return isChanged ? { ...page, data } : page;
}

/**
 * docs/product/live-updates.md#live-lists — while connected, subscribe to 'device:{guid}' for each
 * listed device and change the matching row of the cached page in place. The latest update of
 * each device is remembered, so a page fetched while an update was in flight (and answered after
 * it) does not put an older status back.
 */
export function useLiveDeviceRows(
  queryKey: QueryKey,
  rows: Pick<DeviceListItem, 'device_guid' | 'status'>[] | undefined,
  dataUpdatedAt: number,
) {
  const queryClient = useQueryClient();
  const { status } = useLiveSocket();
  const latest = useRef(new Map<string, DeviceUpdatePayload>());
  const keys = status === 'connected' && rows ? rows.map((r) => channelKey(r.device_guid)) : [];
  useSubscriptions(keys);
  // What the list shows is what a live update changes from (the Device Connected rule).
  useEffect(() => {
    if (rows) {
      noteDeviceStatuses(rows);
    }
  }, [rows]);
  // The cache is written only when a row changes: setQueryData stamps a new dataUpdatedAt even
  // for the same data, which re-ran the effect below, which wrote again: a render loop that kept
  // the device list busy for as long as it was open (Lighthouse: 20 s of script, bench/web.ts).
  const overlay = (updates: Map<string, DeviceUpdatePayload>, onlyNewer: boolean) => {
    const old = queryClient.getQueryData<Page>(queryKey);
    const next = old ? overlayUpdates(old, updates, onlyNewer) : old;
    if (next && next !== old) {
      queryClient.setQueryData(queryKey, next);
    }
  };
  // Updates are written to the cache once a frame, all that arrived since the last one: a storm of
  // a thousand a second is some sixty cache writes and renders, not a thousand (bench/browser-storm.ts).
  const pending = useRef(new Map<string, DeviceUpdatePayload>());
  const frame = useRef<number | null>(null);
  const flush = () => {
    frame.current = null;
    const updates = pending.current;
    pending.current = new Map();
    overlay(updates, false);
  };
  useEffect(
    () => () => {
      if (frame.current !== null) {
        cancelFrame(frame.current);
      }
    },
    [],
  );
  useLiveMessages((message) => {
    const update = asDeviceUpdate(message);
    if (!update) {
      return;
    }
    latest.current.set(update.deviceId, update);
    pending.current.set(update.deviceId, update);
    frame.current ??= nextFrame(flush);
  });
  // After every fetch: re-apply the updates that are newer than what the server answered.
  useEffect(() => {
    overlay(latest.current, true);
    // queryKey is an array rebuilt each render; the fetch time says when the data changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [dataUpdatedAt, queryClient]);
}
