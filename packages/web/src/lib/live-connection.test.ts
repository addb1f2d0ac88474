import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { PortalEvent } from '@outpost/contract/live';
import { LiveConnection, parsePortalEvent } from './live-connection';
import type { ConnectionState, SocketLike } from './live-connection';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: unknown[] = [];
  closedWith: number | undefined;
  onopen: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close(code?: number) {
    this.closedWith = code;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  drop(code: number) {
    this.readyState = 3;
    this.onclose?.({ code } as CloseEvent);
  }
  receive(message: unknown) {
    this.onmessage?.({ data: JSON.stringify(message) } as MessageEvent);
  }
}

function setup() {
  const sockets: FakeSocket[] = [];
  const states: ConnectionState[] = [];
  const events: PortalEvent[] = [];
  const connection = new LiveConnection({
    url: 'ws://portal/api/ws',
    onState: (s) => states.push(s),
    onEvent: (e) => events.push(e),
    createSocket: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
  });
  const last = () => sockets[sockets.length - 1]!;
  return { connection, sockets, states, events, last };
}

describe('live connection (docs/product/live-updates.md#connection)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('connects about 1 s after start, re-subscribes on open and pings every 30 s', () => {
    const { connection, sockets, last } = setup();
    connection.subscribe('device:a');
    connection.start();
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(0);
    vi.advanceTimersByTime(1);
    expect(connection.current.status).toBe('connecting');
    last().open();
    expect(connection.current).toEqual({ status: 'connected', hasGivenUp: false });
    expect(last().sent).toEqual([{ type: 'subscribe', payload: { subscriptionKey: 'device:a' } }]);
    vi.advanceTimersByTime(30_000);
    expect(last().sent).toContainEqual({ type: 'ping' });
  });

  it('retries after 2, 4 and 8 s, then gives up and shows Disconnected', () => {
    const { connection, sockets, last } = setup();
    connection.start();
    vi.advanceTimersByTime(1000);
    last().drop(1001);
    for (const delay of [2000, 4000, 8000]) {
      expect(connection.current).toEqual({ status: 'disconnected', hasGivenUp: false });
      const before = sockets.length;
      vi.advanceTimersByTime(delay - 1);
      expect(sockets).toHaveLength(before);
      vi.advanceTimersByTime(1);
      expect(sockets).toHaveLength(before + 1);
      last().drop(1001);
    }
    expect(connection.current).toEqual({ status: 'disconnected', hasGivenUp: true });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(4);
  });

  it.each([1006, 1011])('does not retry after close code %i', (code) => {
    const { connection, sockets, last } = setup();
    connection.start();
    vi.advanceTimersByTime(1000);
    last().open();
    last().drop(code);
    expect(connection.current).toEqual({ status: 'disconnected', hasGivenUp: true });
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('a successful open resets the retry schedule', () => {
    const { connection, sockets, last } = setup();
    connection.start();
    vi.advanceTimersByTime(1000);
    last().drop(1001);
    vi.advanceTimersByTime(2000);
    last().open();
    last().drop(1001);
    vi.advanceTimersByTime(2000);
    expect(sockets).toHaveLength(3);
  });

  it('an error sets the status to error and the close keeps it', () => {
    const { connection, last } = setup();
    connection.start();
    vi.advanceTimersByTime(1000);
    last().onerror?.(new Event('error'));
    expect(connection.current.status).toBe('error');
    last().drop(1001);
    expect(connection.current).toEqual({ status: 'error', hasGivenUp: false });
  });

  it('after giving up, Reconnect opens a fresh connection with a fresh retry schedule', () => {
    const { connection, sockets, last } = setup();
    connection.subscribe('device:a');
    connection.start();
    vi.advanceTimersByTime(1000);
    last().drop(1006);
    expect(connection.current.hasGivenUp).toBe(true);
    connection.reconnect();
    expect(sockets).toHaveLength(2);
    expect(connection.current).toEqual({ status: 'connecting', hasGivenUp: false });
    last().drop(1001);
    vi.advanceTimersByTime(2000);
    expect(sockets).toHaveLength(3);
    last().open();
    expect(connection.current.status).toBe('connected');
    expect(last().sent).toContainEqual({ type: 'subscribe', payload: { subscriptionKey: 'device:a' } });
  });

  it('wake (tab visible again, browser online) reconnects only after it has given up', () => {
    const { connection, sockets, last } = setup();
    connection.start();
    vi.advanceTimersByTime(1000);
    last().open();
    connection.wake();
    expect(sockets).toHaveLength(1);
    last().drop(1001); // a retry is scheduled: wake leaves it to the schedule
    connection.wake();
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(2000);
    last().drop(1006);
    expect(connection.current.hasGivenUp).toBe(true);
    connection.wake();
    expect(sockets).toHaveLength(3);
  });

  it('delivers events parsed with the contract schemas and drops anything else', () => {
    const { connection, events, last } = setup();
    connection.start();
    vi.advanceTimersByTime(1000);
    last().open();
    const update = { deviceId: 'g', id: 1, status: 'online', lastSeen: null };
    last().receive({ type: 'device_update', payload: update });
    last().receive({ type: 'device_update', payload: { ...update, status: 'sleeping' } });
    last().receive({ type: 'pong', payload: { serverTime: 'x' } });
    last().receive({ type: 'device_update' });
    last().onmessage?.({ data: 'not json' } as MessageEvent);
    expect(events).toEqual([{ type: 'device_update', payload: update }]);
  });

  it('dispose closes the socket and never reconnects', () => {
    const { connection, sockets, last } = setup();
    connection.start();
    vi.advanceTimersByTime(1000);
    last().open();
    connection.dispose();
    expect(last().closedWith).toBe(1000);
    last().drop(1000);
    connection.reconnect();
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });
});

describe('parsePortalEvent', () => {
  it('reads the contract events only', () => {
    expect(
      parsePortalEvent(
        JSON.stringify({ type: 'step_update', payload: { deploymentId: 1, stepOrder: 1, status: 'failed' } }),
      ),
    ).toMatchObject({ type: 'step_update' });
    expect(parsePortalEvent(JSON.stringify({ type: 'toString', payload: {} }))).toBeNull();
    expect(parsePortalEvent('[]')).toBeNull();
  });
});
