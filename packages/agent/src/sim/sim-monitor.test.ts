import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import type { AgentCheck, CheckResultsMessage, HelloMessage } from '@outpost/contract/agent-protocol';
import type { CheckConfig } from '@outpost/contract/checks';
import { RecordingExecutor } from '../actions/executor';
import { createAgent } from '../agent';
import type { Agent } from '../agent';
import type { Ticker } from '../monitoring/monitor';
import { createMemoryOutbox } from '../outbox';
import { createRng } from './rng';
import { NO_FAULTS, parseSimFaults } from './sim-faults';
import { createSimMonitor, simulatedExitCode } from './sim-monitor';
import { createVirtualDevice, virtualBackend } from './virtual-device';

// Simulated machines answer checks from their seed, their working day and their faults, and a
// simulated agent runs them over a real websocket like the real agent, on a tick the test moves.

const device = (index = 0) => createVirtualDevice(createRng(7), index, { prefix: 'T', subnet: 10 });
const check = (id: number, config: CheckConfig): AgentCheck => ({
  id,
  type: config.type,
  config,
  intervalSeconds: 60,
  failuresBeforeAlert: 1,
});
const NOW = Date.UTC(2026, 10, 27, 10, 0);
const all = (share: number) =>
  parseSimFaults(
    `hotCpu=${share},fillingDisk=${share},stoppedService=${share},failingScripts=${share},rebootPending=${share}`,
  );

describe('a simulated machine', () => {
  it('gives the same values for the same seed and minute', () => {
    const a = createSimMonitor(device(), { seed: 1, startedAt: NOW });
    const b = createSimMonitor(device(), { seed: 1, startedAt: NOW });
    expect(a.metrics(NOW)).toEqual(b.metrics(NOW));
    const m = a.metrics(NOW);
    expect(m.cpu).toBeLessThan(30);
    expect(m.volumes.length).toBeGreaterThan(0);
  });

  it('passes the usual checks without faults, and a script fails only where it says exit 2', () => {
    const m = createSimMonitor(device(), { seed: 1, faults: NO_FAULTS, startedAt: NOW });
    expect(m.evaluate(check(1, { type: 'cpu', percent: 90, minutes: 5 }), NOW)).toMatchObject({
      state: 'passing',
    });
    expect(m.evaluate(check(2, { type: 'event', event: 'reboot_pending' }), NOW)).toMatchObject({
      state: 'passing',
    });
    const script = (text: string) =>
      m.evaluate(check(3, { type: 'script', shell: 'powershell', script: text, timeout_seconds: 60 }), NOW);
    expect(script('Write-Output ok')).toMatchObject({ state: 'passing' });
    expect(script('if ($x) { exit 1 }')).toMatchObject({ state: 'warning' });
    expect(script('Write-Output broken\nexit 2')).toEqual({
      state: 'failing',
      output: 'The script exited with code 2',
    });
    expect(simulatedExitCode('exit /b 3')).toBe(3);
  });

  it('has the faults it was given: hot CPU, a filling disk, a stopped service, failing scripts, a pending reboot', () => {
    const d = device(1);
    const m = createSimMonitor(d, { seed: 1, faults: all(1), startedAt: NOW });
    const cpu = m.evaluate(check(1, { type: 'cpu', percent: 90, minutes: 5 }), NOW);
    expect(cpu).toMatchObject({ state: 'failing' });
    expect(cpu.output).toMatch(/^CPU 9\d % average over 5 minutes \(limit 90 %\)$/);
    const service = d.facts.osType === 'macos' ? 'com.apple.mDNSResponder' : 'Spooler';
    expect(m.evaluate(check(2, { type: 'service', service }), NOW)).toMatchObject({ state: 'failing' });
    expect(
      m.evaluate(check(3, { type: 'script', shell: 'cmd', script: 'echo ok', timeout_seconds: 5 }), NOW),
    ).toMatchObject({ state: 'failing' });
    expect(m.evaluate(check(4, { type: 'event', event: 'reboot_pending' }), NOW)).toMatchObject({
      state: 'failing',
    });
    const disk = check(5, { type: 'disk', volume: '*', min_free_percent: 5, min_free_gb: null });
    const freeAt = (at: number) => m.metrics(at).volumes[0]!.freeBytes!;
    expect(freeAt(NOW + 3_600_000)).toBeLessThan(freeAt(NOW));
    expect(m.evaluate(disk, NOW + 200 * 3_600_000)).toMatchObject({ state: 'failing' });
  });

  it('fails a check named by the faults on every machine', () => {
    const m = createSimMonitor(device(), {
      seed: 1,
      faults: parseSimFaults('failingCheck=42'),
      startedAt: NOW,
    });
    expect(m.evaluate(check(42, { type: 'memory', percent: 99 }), NOW)).toEqual({
      state: 'failing',
      output: 'Simulated failure of check 42',
    });
    expect(() => parseSimFaults('hotCpu=2')).toThrow(/share/);
  });

  it('draws the same devices for a share, about that many', () => {
    const hot = (seed: number) =>
      Array.from({ length: 200 }, (_, i) =>
        createSimMonitor(device(i), { seed, faults: parseSimFaults('hotCpu=0.1') }),
      )
        .map((m, i) => (m.faults.hotCpu ? i : -1))
        .filter((i) => i >= 0);
    expect(hot(3)).toEqual(hot(3));
    expect(hot(3).length).toBeGreaterThan(8);
    expect(hot(3).length).toBeLessThan(40);
  });
});

// ---------- a simulated agent over a real websocket ----------

let wss: WebSocketServer | null = null;
const agents: Agent[] = [];
afterEach(async () => {
  await Promise.all(agents.splice(0).map((a) => a.stop()));
  await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
  wss = null;
});

function manualTicker() {
  const listeners = new Set<(now: number) => void>();
  const ticker: Ticker = {
    add: (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
  };
  return { ticker, tick: (now: number) => listeners.forEach((l) => l(now)) };
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 200 && !cond(); i++) {
    await new Promise((r) => setTimeout(r, 10));
  }
  expect(cond()).toBe(true);
};

describe('a simulated agent', () => {
  it('lists the checks capability, answers a check set in one batch and reports a crash once', async () => {
    wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise<void>((resolve) => wss!.once('listening', () => resolve()));
    const hellos: HelloMessage[] = [];
    const results: CheckResultsMessage[] = [];
    const sockets: WebSocket[] = [];
    wss.on('connection', (ws) => {
      sockets.push(ws);
      ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as { type: string; messageId?: string };
        if (m.type === 'hello') {
          hellos.push(m as HelloMessage);
          const welcome = {
            type: 'welcome',
            protocolVersion: 1,
            deviceGuid: 'd',
            heartbeatIntervalMs: 30_000,
            serverTime: '',
          };
          ws.send(JSON.stringify(welcome));
          ws.send(
            JSON.stringify({
              type: 'checks',
              revision: 'r1',
              checks: [
                check(1, { type: 'cpu', percent: 90, minutes: 5 }),
                check(2, { type: 'script', shell: 'sh', script: 'exit 2', timeout_seconds: 5 }),
              ],
            }),
          );
        } else if (m.type === 'check_results') {
          results.push(m as CheckResultsMessage);
          ws.send(JSON.stringify({ type: 'ack', messageId: m.messageId }));
        }
      });
    });
    const d = device();
    const { ticker, tick } = manualTicker();
    const outbox = createMemoryOutbox();
    const agent = createAgent({
      server: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
      deviceGuid: 'd',
      agentSecret: 's',
      outbox,
      backend: virtualBackend(d),
      executor: new RecordingExecutor(),
      deployments: () => Promise.reject(new Error('no deployments here')),
      monitor: createSimMonitor(d, { seed: 1 }),
      ticker,
      restartedAfterCrash: { at: '2026-11-27T08:00:00.000Z', reason: 'did not stop cleanly' },
      backoff: { baseMs: 10, capMs: 20 },
    });
    agents.push(agent);
    agent.start();
    await until(() => agent.monitoring?.revision === 'r1');
    expect(hellos[0]!.capabilities).toEqual(['ack_lists', 'checks']);
    expect(hellos[0]!.restartedAfterCrash).toEqual({
      at: '2026-11-27T08:00:00.000Z',
      reason: 'did not stop cleanly',
    });
    tick(Date.now() + 11_000);
    await until(() => results.length === 1);
    expect(results[0]!.results.map((r) => [r.checkId, r.state])).toEqual([
      [1, 'passing'],
      [2, 'failing'],
    ]);
    // after a reconnect: no crash in the hello, and the same set is reported once more
    sockets[0]!.terminate();
    await until(() => hellos.length === 2 && agent.connection.state === 'connected');
    expect(hellos[1]!.restartedAfterCrash).toBeUndefined();
    tick(Date.now() + 12_000);
    await until(() => results.length === 2);
    expect(results[1]!.results).toHaveLength(2);
    // acknowledged: nothing waits in the outbox
    await until(() => outbox.list().every((m) => m.type !== 'check_results'));
  });
});
