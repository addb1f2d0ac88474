import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startTestServer, createEnrollmentToken } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { devices } from '@outpost/server/db/schema';
import { loadAgentConfig } from '@outpost/agent/config';
import { enrollDevice } from '@outpost/agent/enroll';

const run = promisify(execFile);
const repo = path.resolve(import.meta.dirname, '../../..');

// Re-enrolment keeps a device record only for an agent that proves the identity it holds
// (docs/product/agent-protocol.md): the CLI presents the guid and secret of a configuration it finds.
describe('agent enrolment with a kept identity', () => {
  let server: TestServer;
  let token: string;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-enrol-'));
  const configFile = path.join(dir, 'agent.json');

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    const admin = await server.devSignIn('admin@acme.example');
    token = (await createEnrollmentToken(server.request.bind(server), admin.token)).token;
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const enrolWithCli = () =>
    run(
      'npx',
      [
        'tsx',
        'packages/agent/src/main.ts',
        'enroll',
        '--server',
        server.url,
        '--token',
        token,
        '--config',
        configFile,
        '--no-external-ip',
      ],
      { cwd: repo, env: { ...process.env, OUTPOST_AGENT_DRY_RUN: '1' } },
    );

  it('the CLI re-enrolling over its own configuration keeps the device record', async () => {
    await enrolWithCli();
    const first = loadAgentConfig(configFile);
    const { stdout } = await enrolWithCli();
    const second = loadAgentConfig(configFile);
    expect(stdout).toContain('(existing device record)');
    expect(second.deviceGuid).toBe(first.deviceGuid);
    expect(second.agentSecret).not.toBe(first.agentSecret);
    const rows = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, first.deviceGuid));
    expect(rows).toHaveLength(1);
  }, 90_000);

  it('an identity that no longer matches enrols a new device instead of failing', async () => {
    const facts = { hostname: 'kept-config', osType: 'linux', osVersion: 'test', agentVersion: 'test' };
    const original = await enrollDevice(server.url, token, facts);
    const stale = await enrollDevice(server.url, token, facts, {
      deviceGuid: original.device_guid,
      agentSecret: 'a-secret-from-another-life',
    });
    expect(stale.reused).toBe(false);
    expect(stale.device_guid).not.toBe(original.device_guid);
    const proven = await enrollDevice(server.url, token, facts, {
      deviceGuid: original.device_guid,
      agentSecret: original.agent_secret,
    });
    expect(proven).toMatchObject({ reused: true, device_guid: original.device_guid });
  });
});
