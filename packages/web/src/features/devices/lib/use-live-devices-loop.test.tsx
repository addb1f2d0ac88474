// @vitest-environment jsdom
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { DeviceListItem } from '@outpost/contract/devices';
import type { PortalEvent } from '@outpost/contract/live';
import { useLiveDeviceRows } from './use-live-devices';

let listener: ((m: PortalEvent) => void) | null = null;
vi.mock('../../../lib/socket', () => ({
  useLiveSocket: () => ({ status: 'connected' }),
  useSubscriptions: () => undefined,
  useLiveMessages: (l: (m: PortalEvent) => void) => {
    listener = l;
  },
}));

const row = (guid: string, lastSeen: string) =>
  ({ id: 1, device_guid: guid, status: 'online', last_seen: lastSeen }) as unknown as DeviceListItem;
const key = ['devices', 'test'];

function List({ onRender }: { onRender: (rows: DeviceListItem[]) => void }) {
  const query = useQuery({
    queryKey: key,
    queryFn: () => Promise.resolve({ data: [row('g-1', '2026-11-23T06:00:00.000Z')] }),
    staleTime: Infinity,
  });
  const rows = query.data?.data;
  useLiveDeviceRows(key, rows, query.dataUpdatedAt);
  onRender(rows ?? []);
  return null;
}

describe('live device rows in the cache', () => {
  afterEach(cleanup);

  it('settles after a fetch and after an update instead of writing the cache in a loop', async () => {
    const client = new QueryClient();
    const wrap = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    );
    const seen: DeviceListItem[][] = [];
    render(<List onRender={(r) => seen.push(r)} />, { wrapper: wrap });
    await act(() => new Promise((resolve) => setTimeout(resolve, 100)));
    const afterFetch = seen.length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    // nothing new happened: no further renders (the loop rendered hundreds of times here)
    expect(seen.length).toBe(afterFetch);
    expect(afterFetch).toBeLessThan(6);

    act(() =>
      listener!({
        type: 'device_update',
        payload: { deviceId: 'g-1', id: 1, status: 'error', lastSeen: '2026-11-23T06:01:00.000Z' },
      }),
    );
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(seen.at(-1)?.[0]?.status).toBe('error');
    const afterUpdate = seen.length;
    await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
    expect(seen.length).toBe(afterUpdate);
  });
});
