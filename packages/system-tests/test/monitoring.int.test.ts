import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AlertListResponse } from '@outpost/contract/alerts';
import type { DeviceCheck, MonitoringPolicy } from '@outpost/contract/checks';
import {
  startTestServer,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent } from '@outpost/agent/agent';
import { createStepsRunner } from '@outpost/agent/deployment/steps-runner';
import { createSystemMonitor } from '@outpost/agent/monitoring/system-monitor';
import { systemSources } from '@outpost/agent/monitoring/system-sources';
import { createFileOutbox } from '@outpost/agent/outbox';
import { createSystemBackend, probeSource } from '@outpost/agent/system-backend';

// docs/product/monitoring.md#checks and #alerts: the real agent on this machine runs a monitoring
// policy's checks against the machine itself (CPU, memory, disk, processes, TCP ports, sh
// scripts), the server stores the states it reports, a failing script opens an alert, and once
// the script is changed to pass, the alert resolves by itself. Everything the checks touch is
// read-only or in a temp folder; the port is the test's own on loopback.

type Envelope<T> = { success: true; data: T };

describe('the real agent runs its checks', () => {
  let server: TestServer;
  let agent: Agent | null = null;
  let listener: net.Server;
  let openPort: number;
  let closedPort: number;
  let sleeper: ChildProcess;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-checks-'));

  beforeAll(async () => {
    server = await startTestServer({ env: { AGENT_PRESENCE_GRACE_MS: '0' } });
    await server.seedDemo();
    listener = net.createServer((s) => s.end());
    await new Promise<void>((r) => listener.listen(0, '127.0.0.1', r));
    openPort = (listener.address() as AddressInfo).port;
    const spare = net.createServer();
    await new Promise<void>((r) => spare.listen(0, '127.0.0.1', r));
    closedPort = (spare.address() as AddressInfo).port;
    await new Promise((r) => spare.close(r));
    // a process whose name is known: this runner's own are renamed ("node (vitest 1)"), and
    // whether another plain `node` runs at that moment depends on what else the machine does
    sleeper = spawn('sleep', ['300'], { stdio: 'ignore' });
    await new Promise((r) => sleeper.once('spawn', r));
  });
  afterAll(async () => {
    sleeper.kill();
    await agent?.stop();
    await new Promise((r) => listener.close(r));
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports each check’s state, and a failing script opens an alert that resolves by itself', async () => {
    const token = (await server.devSignIn('admin@acme.example')).token;
    const call = async <T>(method: string, url: string, body?: unknown) => {
      const res = await server.request<Envelope<T>>(method, url, {
        token,
        ...(body !== undefined && { body }),
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.data;
    };
    const checks = [
      { name: 'CPU', config: { type: 'cpu', percent: 100, minutes: 1 } },
      { name: 'Memory', config: { type: 'memory', percent: 100 } },
      { name: 'Huge free space', config: { type: 'disk', volume: '/', min_free_gb: 1_000_000 } },
      { name: 'Sleep runs', config: { type: 'process', process: 'sleep' } },
      { name: 'Ghost runs', config: { type: 'process', process: 'outpost-no-such-process' } },
      { name: 'Open port', config: { type: 'port', host: '127.0.0.1', port: openPort, timeout_ms: 1000 } },
      {
        name: 'Closed port',
        config: { type: 'port', host: '127.0.0.1', port: closedPort, timeout_ms: 1000 },
      },
      { name: 'Warn script', config: { type: 'script', shell: 'sh', script: 'echo half way; exit 1' } },
      {
        name: 'Health script',
        config: { type: 'script', shell: 'sh', script: 'echo broken; exit 2' },
        severity: 'critical',
      },
    ];
    const policy = await call<MonitoringPolicy>('POST', '/api/customer/monitoring-policies', {
      name: 'This machine',
      target_type: 'tenant',
      checks: checks.map((c) => ({ ...c, interval_seconds: 30 })),
    });

    const enrolToken = (await createEnrollmentToken(server, token)).token;
    const creds = (await enroll(server, enrolToken, facts({ hostname: 'real-checks', osType: 'linux' }))).body
      .data;
    agent = createAgent({
      server: server.url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      outbox: createFileOutbox(path.join(dir, 'outbox')),
      backend: createSystemBackend({ externalIpUrl: null }),
      executor: new RecordingExecutor(),
      deployments: createStepsRunner({
        server: server.url,
        deviceGuid: creds.device_guid,
        agentSecret: creds.agent_secret,
        workDir: path.join(dir, 'work'),
      }),
      monitor: createSystemMonitor(
        systemSources({ stateDir: dir, probes: probeSource('inline'), crashedRestartAt: null }),
      ),
    });
    agent.start();

    const states = await eventually(async () => {
      const list = await call<{ data: DeviceCheck[] }>(
        'GET',
        `/api/customer/devices/${creds.device_guid}/checks`,
      );
      return list.data.length === checks.length && list.data.every((c) => c.state !== null)
        ? list.data
        : null;
    }, 30_000);
    const stateOf = Object.fromEntries(states.map((c) => [c.name, c.state]));
    expect(stateOf).toEqual({
      CPU: 'passing',
      Memory: 'passing',
      'Huge free space': 'failing',
      'Sleep runs': 'passing',
      'Ghost runs': 'failing',
      'Open port': 'passing',
      'Closed port': 'failing',
      'Warn script': 'warning',
      'Health script': 'failing',
    });
    expect(states.find((c) => c.name === 'Health script')?.output).toContain('broken');

    const alerts = await eventually(async () => {
      const list = await call<AlertListResponse>(
        'GET',
        `/api/customer/alerts?device=${creds.device_guid}&condition=check`,
      );
      return list.data.some((a) => a.title === 'Health script') ? list.data : null;
    });
    const health = alerts.find((a) => a.title === 'Health script')!;
    expect(health).toMatchObject({ severity: 'critical', state: 'open' });
    expect(alerts.find((a) => a.title === 'Warn script (warning)')?.severity).toBe('warning');

    // the script is fixed: same check (its id kept), now passing; the alert resolves by itself
    const scriptCheck = policy.checks.find((c) => c.name === 'Health script')!;
    await call<MonitoringPolicy>('PUT', `/api/customer/monitoring-policies/${policy.id}`, {
      checks: policy.checks.map((c) =>
        c.id === scriptCheck.id
          ? { ...c, config: { type: 'script', shell: 'sh', script: 'echo fine; exit 0' } }
          : c,
      ),
    });
    const resolved = await eventually(async () => {
      const list = await call<AlertListResponse>(
        'GET',
        `/api/customer/alerts?device=${creds.device_guid}&state=resolved`,
      );
      return list.data.find((a) => a.id === health.id) ?? null;
    }, 30_000);
    expect(resolved.resolved_by).toBeNull();
  }, 90_000);
});
