import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import { PORTAL_CLOSE } from '@outpost/contract/live';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import type { User } from '@outpost/contract/users';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { devices, sites } from '../../db/schema/index';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  facts,
  onlineAgent,
  portalAuth,
} from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// SECURITY.md R2-3: live step output and per-device job updates reach only subscribers who may see
// the device's site, and a subscription stops when an administrator narrows the subscriber's sites.

type Envelope<T> = { success: true; data: T };

describe('live deployment events are filtered per device by the receiver’s sites', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<TestServer['devSignIn']>>;

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    admin = await server.devSignIn('admin@acme.example');
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown, token = admin.token) =>
    server.request<T>(method, path, { token, body });

  async function deviceIn(
    hostname: string,
    siteId: number,
  ): Promise<{ id: number; guid: string; agent: AgentSocket }> {
    const token = (await createEnrollmentToken(server, admin.token, { site_id: siteId })).token;
    const creds = (await enroll(server, token, facts({ hostname }))).body.data;
    const agent = await onlineAgent(server.url, creds, { hostname });
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    return { id: row!.id, guid: creds.device_guid, agent };
  }

  const progress = async (agent: AgentSocket, commandId: string, messageId: string, stdout: string) => {
    agent.send({
      type: 'step_progress',
      messageId,
      commandId,
      stepOrder: 1,
      status: 'running',
      seq: 1,
      attempt: 1,
      stdout,
    } as never);
    await agent.waitFor('ack', (a) => a.messageId === messageId);
  };

  it('a London-only user never receives HQ output, and is cut off when their sites are narrowed', async () => {
    const [hq, lon] = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, admin.user.tenant_id))
      .orderBy(sites.id);
    const hqPc = await deviceIn('live-hq', hq!.id);
    const lonPc = await deviceIn('live-lon', lon!.id);
    const created = await call<Envelope<User>>('POST', '/api/customer/users', {
      email: 'london-watch@acme.example',
      site_access_type: 'specific',
      site_ids: [lon!.id],
    });
    const watcher = await server.devSignIn('london-watch@acme.example');

    const pkg = (
      await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', { name: 'Live sites' })
    ).body.data;
    await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
      step_name: 'echo',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'echo hi' }),
    });
    const job = (
      await call<Envelope<DeploymentJob>>('POST', '/api/customer/deployments', {
        package_id: pkg.id,
        device_ids: [hqPc.id, lonPc.id],
        job_name: 'Two sites, live',
      })
    ).body.data;

    const everyone = connectPortalSocket(server.url, portalAuth(admin));
    const london = connectPortalSocket(server.url, portalAuth(watcher));
    for (const s of [everyone, london]) {
      await s.waitFor('connection_status');
      s.send({ type: 'subscribe', payload: { subscriptionKey: `deployment:${job.id}` } });
      await s.waitFor('subscribed');
    }
    const isRun = (m: CommandMessage) => m.command.kind === 'run_deployment';
    const hqCmd = await hqPc.agent.waitFor('command', isRun);
    const lonCmd = await lonPc.agent.waitFor('command', isRun);

    await progress(hqPc.agent, hqCmd.commandId, 'hq-1', 'HQ-SECRET\n');
    await everyone.waitFor('step_update', (m) => m.payload.stdout === 'HQ-SECRET\n');
    await progress(lonPc.agent, lonCmd.commandId, 'lon-1', 'london-out\n');
    await london.waitFor('step_update', (m) => m.payload.stdout === 'london-out\n');
    // The device-level job updates follow (settled in batches): each reaches whoever may see it.
    await everyone.waitFor('deployment_update', (m) => m.payload.deviceId === hqPc.guid);
    await london.waitFor('deployment_update', (m) => m.payload.deviceId === lonPc.guid);
    await everyone.waitFor('deployment_update', (m) => m.payload.deviceId === lonPc.guid);
    // Events arrive in the order they were published: HQ's went out first, and never reached London.
    const seen = JSON.stringify(london.received);
    expect(seen).not.toContain('HQ-SECRET');
    expect(seen).not.toContain(hqPc.guid);

    // The administrator moves the watcher to HQ only: their session ends, the socket closes now.
    const narrowed = await call('PUT', `/api/customer/users/${created.body.data.id}`, {
      site_access_type: 'specific',
      site_ids: [hq!.id],
    });
    expect(narrowed.status).toBe(200);
    await london.closed;
    expect(london.closeCode).toBe(PORTAL_CLOSE.invalidToken);

    everyone.ws.close();
    await call('POST', `/api/customer/deployments/${job.id}/cancel`);
    await hqPc.agent.close();
    await lonPc.agent.close();
  });
});
