import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DashboardStats } from '@outpost/contract/devices';
import type { InventoryMessage } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';

// What a device reports in its first software inventory is what it came with;
// only titles that appear after it are "recently discovered" on the dashboard
// (docs/decisions/2026-11-26-discovered-software.md).

const app = (name: string) => ({
  name,
  displayName: null,
  publisher: 'Vendor',
  version: '1.0',
  installDate: null,
});

describe('dashboard: recently discovered software', () => {
  let server: TestServer;
  let adminToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    adminToken = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('leaves out the software of a device first inventory and lists what appears after it', async () => {
    const token = (await createEnrollmentToken(server, adminToken)).token;
    const res = await enroll(server, token, facts({ hostname: 'pc-baseline', machineId: 'mid-pc-baseline' }));
    expect(res.status).toBe(200);
    const agent = await onlineAgent(server.url, res.body.data);
    const inventory = (messageId: string, names: string[]): InventoryMessage => ({
      type: 'inventory',
      messageId,
      collectedAt: new Date().toISOString(),
      software: names.map(app),
    });
    agent.send(inventory('inv-1', ['Came With It', 'Also Preinstalled']));
    await agent.waitFor('ack', (m) => m.messageId === 'inv-1');
    agent.send(inventory('inv-2', ['Came With It', 'Also Preinstalled', 'Installed Later']));
    await agent.waitFor('ack', (m) => m.messageId === 'inv-2');

    const stats = await server.request<{ data: DashboardStats }>(
      'GET',
      '/api/customer/devices/stats/dashboard',
      {
        token: adminToken,
      },
    );
    expect(stats.status).toBe(200);
    const names = stats.body.data.recentSoftware.map((s) => s.name);
    expect(names).toContain('Installed Later');
    expect(names).not.toContain('Came With It');
    expect(names).not.toContain('Also Preinstalled');
    await agent.close();
  });
});
