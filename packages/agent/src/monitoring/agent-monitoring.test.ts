import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AckedAgentMessage, AgentMessage, ChecksMessage } from '@outpost/contract/agent-protocol';
import { createAgentMonitoring } from './agent-monitoring';
import { createIntervalTicker } from './monitor';
import type { Monitor } from './monitor';

// The agent's monitoring on its own one-second tick, with fake timers: results go through the
// outbox (sendReliable), metrics once a minute only while connected, and nothing after stop().

afterEach(() => {
  vi.useRealTimers();
});

function setUp() {
  vi.useFakeTimers({ now: 0 });
  const port = {
    state: 'connected',
    sent: [] as AgentMessage[],
    reliable: [] as AckedAgentMessage[],
    send(m: AgentMessage) {
      this.sent.push(m);
    },
    sendReliable(m: AckedAgentMessage) {
      this.reliable.push(m);
    },
  };
  let cpu = 20;
  const monitor: Monitor = {
    evaluate: (c) =>
      c.id === 2 && cpu > 90 ? { state: 'failing', output: 'hot' } : { state: 'passing', output: 'ok' },
    metrics: (now) => ({ sampledAt: new Date(now).toISOString(), cpu, memory: 40, volumes: [] }),
  };
  let ids = 0;
  const monitoring = createAgentMonitoring(port, {
    monitor,
    ticker: createIntervalTicker(1000),
    random: () => 0.5,
    newId: () => `m${++ids}`,
  });
  return { port, monitoring, setCpu: (v: number) => (cpu = v) };
}

const checks = (ids: number[]): ChecksMessage => ({
  type: 'checks',
  revision: ids.join(','),
  checks: ids.map((id) => ({
    id,
    type: 'memory',
    config: { type: 'memory', percent: 90 },
    intervalSeconds: 60,
    failuresBeforeAlert: 2,
  })),
});

describe('the agent monitoring', () => {
  it('reports the check set once, then each change through the outbox', async () => {
    const { port, monitoring, setCpu } = setUp();
    monitoring.start();
    monitoring.onChecks(checks([1, 2]));
    await vi.advanceTimersByTimeAsync(6_000);
    expect(port.reliable).toEqual([
      {
        type: 'check_results',
        messageId: 'm1',
        results: [
          { checkId: 1, state: 'passing', output: 'ok', checkedAt: '1970-01-01T00:00:05.000Z' },
          { checkId: 2, state: 'passing', output: 'ok', checkedAt: '1970-01-01T00:00:05.000Z' },
        ],
      },
    ]);
    setCpu(95);
    await vi.advanceTimersByTimeAsync(60_000); // one failure of two
    expect(port.reliable).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(port.reliable[1]).toMatchObject({
      results: [{ checkId: 2, state: 'failing', output: 'hot' }],
    });
    expect(monitoring.revision).toBe('1,2');
    monitoring.stop();
    setCpu(10);
    await vi.advanceTimersByTimeAsync(120_000);
    expect(port.reliable).toHaveLength(2);
  });

  it('sends metrics once a minute while connected to a server that sent checks, never queued', async () => {
    const { port, monitoring } = setUp();
    monitoring.start();
    await vi.advanceTimersByTimeAsync(61_000);
    expect(port.sent).toEqual([]); // no checks from this server yet: it may not know metrics
    monitoring.onChecks(checks([]));
    await vi.advanceTimersByTimeAsync(60_000);
    expect(port.sent.filter((m) => m.type === 'metrics')).toHaveLength(1);
    port.state = 'connecting';
    await vi.advanceTimersByTimeAsync(120_000);
    expect(port.sent.filter((m) => m.type === 'metrics')).toHaveLength(1);
    port.state = 'connected';
    await vi.advanceTimersByTimeAsync(60_000);
    expect(port.sent.filter((m) => m.type === 'metrics')).toHaveLength(2);
    expect(port.reliable).toEqual([]);
    monitoring.stop();
  });
});
