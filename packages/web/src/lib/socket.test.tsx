// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LiveSocketProvider, useSubscriptions } from './socket';

// The provider counts who holds a channel: two screens (or a screen and the shell) subscribed to
// the same key keep it until the last one lets go.

class FakeSocket {
  static last: FakeSocket | null = null;
  readyState = 0;
  sent: { type: string; payload?: { subscriptionKey?: string } }[] = [];
  onopen: ((e: Event) => void) | null = null;
  onmessage: ((e: MessageEvent) => void) | null = null;
  onerror: ((e: Event) => void) | null = null;
  onclose: ((e: CloseEvent) => void) | null = null;
  constructor() {
    FakeSocket.last = this;
  }
  send(data: string) {
    this.sent.push(JSON.parse(data) as FakeSocket['sent'][number]);
  }
  close() {
    this.readyState = 3;
  }
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
}

function Holder({ keys }: { keys: string[] }) {
  useSubscriptions(keys);
  return null;
}

function App({ a, b }: { a: boolean; b: boolean }) {
  return (
    <LiveSocketProvider tenantId={1} userId={1} token="t">
      {a && <Holder keys={['deployment:7']} />}
      {b && <Holder keys={['deployment:7', 'deployment:8']} />}
    </LiveSocketProvider>
  );
}

beforeEach(() => {
  vi.useFakeTimers();
  vi.stubGlobal('WebSocket', FakeSocket);
});
afterEach(() => {
  cleanup();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('live socket subscriptions', () => {
  it('subscribes once per key and unsubscribes when the last holder leaves', () => {
    const view = render(<App a b />);
    act(() => {
      vi.advanceTimersByTime(1500);
      FakeSocket.last!.open();
    });
    const socket = FakeSocket.last!;
    const sent = () =>
      socket.sent.filter((m) => m.type !== 'ping').map((m) => `${m.type} ${m.payload?.subscriptionKey}`);
    expect(sent()).toEqual(['subscribe deployment:7', 'subscribe deployment:8']);

    view.rerender(<App a={false} b />);
    expect(sent()).toEqual(['subscribe deployment:7', 'subscribe deployment:8']);

    view.rerender(<App a={false} b={false} />);
    expect(sent()).toEqual([
      'subscribe deployment:7',
      'subscribe deployment:8',
      'unsubscribe deployment:7',
      'unsubscribe deployment:8',
    ]);
  });
});
