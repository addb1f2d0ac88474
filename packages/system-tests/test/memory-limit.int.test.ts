import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, createEnrollmentToken, eventually, facts } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { devices } from '@outpost/server/db/schema';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent, DeviceBackend } from '@outpost/agent/agent';
import { enrollDevice } from '@outpost/agent/enroll';
import { MEMORY_LIMIT_EXIT_CODE, watchMemory } from '@outpost/agent/memory-ceiling';
import { createFileOutbox } from '@outpost/agent/outbox';

const MB = 1024 * 1024;

/** A device with fixed facts and an empty inventory: what is under test is the memory report. */
const backend: DeviceBackend = {
  hello: () =>
    Promise.resolve({
      agentVersion: '1.0.0-test',
      hostname: 'memory-host',
      osType: 'linux',
      osVersion: 'Debian 12',
      sessions: [],
    }),
  inventory: () => Promise.resolve({ facts: { hostname: 'memory-host' } }),
};

// An agent whose memory (an injected reader) stays above its limit reports it to a real server,
// which keeps the report on the device (status error and the fault's message), then stops and
// exits with its own code for the service manager to restart it.
describe('the agent past its memory limit', () => {
  let server: TestServer;
  let agent: Agent | null = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-agent-memory-'));

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('reports the limit to the server, stops and exits with MEMORY_LIMIT_EXIT_CODE', async () => {
    const admin = await server.devSignIn('admin@acme.example');
    const token = await createEnrollmentToken(server.request, admin.token);
    const enrolled = await enrollDevice(server.url, token.token, facts({ hostname: 'memory-host' }));
    agent = createAgent({
      server: server.url,
      deviceGuid: enrolled.device_guid,
      agentSecret: enrolled.agent_secret,
      outbox: createFileOutbox(path.join(dir, 'outbox')),
      backend,
      executor: new RecordingExecutor(),
      deployments: () => Promise.reject(new Error('no deployments here')),
    });
    const connected = new Promise<void>((resolve) =>
      agent!.connection.onState((state) => state === 'connected' && resolve()),
    );
    agent.start();
    await connected;

    const running = agent;
    let stopped = false;
    const exitCode = await new Promise<number>((resolve) => {
      watchMemory({
        limitMb: 200,
        readRss: () => 350 * MB,
        sustainMs: 0,
        intervalMs: 20,
        graceMs: 200,
        report: (message) => running.reportFault(true, message, 'memory_limit'),
        stop: async () => {
          await running.stop();
          stopped = true;
        },
        exit: resolve,
      });
    });
    expect(exitCode).toBe(MEMORY_LIMIT_EXIT_CODE);
    expect(stopped).toBe(true);
    expect(running.connection.state).toBe('stopped');

    const row = await eventually(async () => {
      const [r] = await server.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, enrolled.device_guid));
      return r?.faultMessage ? r : null;
    });
    expect(row.faultMessage).toMatch(/350 MB of memory, above its limit of 200 MB/);
    expect(row.faultMessage).toContain(`exit code ${MEMORY_LIMIT_EXIT_CODE}`);

    // restarted by its service, the agent's hello ends the fault; the device's activity log keeps
    // that it passed its limit, with what it said
    agent = createAgent({
      server: server.url,
      deviceGuid: enrolled.device_guid,
      agentSecret: enrolled.agent_secret,
      outbox: createFileOutbox(path.join(dir, 'outbox')),
      backend,
      executor: new RecordingExecutor(),
      deployments: () => Promise.reject(new Error('no deployments here')),
    });
    agent.start();
    await eventually(async () => {
      const [r] = await server.database.db
        .select({ status: devices.status })
        .from(devices)
        .where(eq(devices.deviceGuid, enrolled.device_guid));
      return r?.status === 'online';
    });
    const log = await server.request<{ data: { event_type: string; detail: string | null }[] }>(
      'GET',
      `/api/customer/device-activity/device/${enrolled.device_guid}?days=1`,
      { token: admin.token },
    );
    expect(log.status).toBe(200);
    const entries = log.body.data;
    const notice = entries.find((e) => e.event_type === 'memory_limit');
    expect(notice?.detail).toMatch(/350 MB of memory, above its limit of 200 MB/);
    // a notice counts no time: the presence events around it are still online, offline, online
    expect(entries.filter((e) => e.event_type !== 'memory_limit').map((e) => e.event_type)).toEqual([
      'online',
      'offline',
      'online',
    ]);
  }, 60_000);
});
