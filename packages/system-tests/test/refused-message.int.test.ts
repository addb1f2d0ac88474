import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AckedAgentMessage } from '@outpost/contract/agent-protocol';
import {
  startTestServer,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { activityEvents } from '@outpost/server/db/schema';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent } from '@outpost/agent/agent';
import { createFileOutbox } from '@outpost/agent/outbox';
import { createSystemBackend } from '@outpost/agent/system-backend';

// The real agent, its on-disk outbox and the real server: a message the server refuses as invalid
// (here an activity whose user name holds an unpaired surrogate, as an older agent could have
// left in its outbox) leaves the outbox for good, while the valid message beside it is delivered
// and acknowledged. Before, the server answered internal_error without an ack and the agent
// resent the message after every reconnect, forever (SECURITY.md R2-11).
describe('the real agent drops a message the server refused', () => {
  let server: TestServer;
  let agent: Agent | null = null;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-refused-'));
  const outboxDir = path.join(dir, 'outbox');

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const login = (messageId: string, userName: string): AckedAgentMessage => ({
    type: 'activity',
    messageId,
    events: [
      { eventType: 'login', userName, sessionId: `s-${messageId}`, timestamp: new Date().toISOString() },
    ],
  });

  it('empties its outbox: the refused message is dropped, the valid one stored once', async () => {
    const admin = await server.devSignIn('admin@acme.example');
    const token = await createEnrollmentToken(server.request, admin.token);
    const creds = (await enroll(server, token.token, facts({ hostname: 'refused-01', osType: 'linux' }))).body
      .data;
    const outbox = createFileOutbox(outboxDir);
    outbox.put(login('refused-1', 'mallory\ud800'));
    outbox.put(login('valid-1', 'alice'));
    const warnings: string[] = [];
    agent = createAgent({
      server: server.url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      outbox: createFileOutbox(outboxDir),
      backend: createSystemBackend({ externalIpUrl: null }),
      executor: new RecordingExecutor(),
      deployments: () => Promise.reject(new Error('no deployments in this test')),
      backoff: { baseMs: 100, capMs: 500 },
      log: { info: () => undefined, warn: (m) => void warnings.push(m), error: () => undefined },
    });
    agent.start();
    const outboxEmpty = () => fs.readdirSync(outboxDir).filter((f) => f.endsWith('.json')).length === 0;
    await eventually(() => Promise.resolve(outboxEmpty()), 15_000);
    expect(warnings.some((w) => w.includes('invalid_message'))).toBe(true);
    expect(warnings.some((w) => w.includes('internal_error'))).toBe(false);
    const stored = await server.database.db
      .select({ userName: activityEvents.userName })
      .from(activityEvents);
    // (the agent also reports this machine's own sessions: only the two names here matter)
    const names = stored.map((r) => r.userName ?? '');
    expect(names.filter((n) => n === 'alice')).toHaveLength(1);
    expect(names.filter((n) => n.startsWith('mallory'))).toEqual([]);
  }, 30_000);
});
