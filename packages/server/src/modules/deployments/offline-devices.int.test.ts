import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import type { AuditListResponse } from '@outpost/contract/audit';
import type {
  DeploymentJob,
  DeploymentJobDetail,
  EndWaitingDevicesResponse,
} from '@outpost/contract/deployments';
import { deploymentMessages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deviceCommands, devices, sites } from '../../db/schema/index';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  portalAuth,
} from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// docs/architecture.md, "Devices a job waits for": a device that went offline mid-job is shown
// with since when and until when the job waits for it, a step whose timeout passed meanwhile is
// marked, and an administrator ends such devices now (their tenant and sites only, audited, live).

type Envelope<T> = { success: true; data: T };
type ErrorBody = { success: false; error: string; code?: string };
const API = '/api/customer/deployments';
const HOUR = 3_600_000;

describe('devices a running job waits for', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<TestServer['devSignIn']>>;
  let siteIds: { hq: number; lon: number };
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({
      env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100', AGENT_PRESENCE_GRACE_MS: '0' },
    });
    await server.seedDemo();
    admin = await server.devSignIn('admin@acme.example');
    const [hq, lon] = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, admin.user.tenant_id))
      .orderBy(sites.id);
    siteIds = { hq: hq!.id, lon: lon!.id };
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown, token = admin.token) =>
    server.request<T>(method, path, { token, body });

  async function deviceIn(hostname: string, siteId: number) {
    const token = (await createEnrollmentToken(server, admin.token, { site_id: siteId })).token;
    const creds = (await enroll(server, token, facts({ hostname, machineId: `mid-${hostname}` }))).body.data;
    const agent = await onlineAgent(server.url, creds, { hostname });
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    return { id: row!.id, creds, agent };
  }

  /** A one-step job (a 1 s timeout) on these devices; each agent has been handed its command. */
  async function jobOn(agents: { id: number; agent: AgentSocket }[]) {
    const pkg = (
      await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
        name: `Offline wait ${++n}`,
      })
    ).body.data;
    await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
      step_name: 'Install',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'setup.exe /quiet' }),
      timeout_seconds: 1,
    });
    const job = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkg.id,
      device_ids: agents.map((a) => a.id),
      job_name: `Offline wait ${n}`,
    });
    expect(job.status).toBe(200);
    const isRun = (m: CommandMessage) => m.command.kind === 'run_deployment';
    const commands = [];
    for (const a of agents) {
      commands.push((await a.agent.waitFor('command', isRun)).commandId);
    }
    return { jobId: job.body.data.id, commands };
  }

  async function startStep(agent: AgentSocket, commandId: string) {
    const messageId = `ow-${++n}`;
    agent.send({
      type: 'step_progress',
      messageId,
      commandId,
      stepOrder: 1,
      status: 'running',
      seq: 1,
      attempt: 1,
      startedAt: new Date().toISOString(),
    } as never);
    await agent.waitFor('ack', (a) => a.messageId === messageId);
  }

  const detail = async (jobId: number, token = admin.token) =>
    (await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${jobId}`, undefined, token)).body.data;

  it('reports offline-since, expiry and a passed step timeout, and fails the device now', async () => {
    const pc = await deviceIn('ow-running', siteIds.hq);
    const { jobId, commands } = await jobOn([pc]);
    await startStep(pc.agent, commands[0]!);
    await eventually(async () => (await detail(jobId)).deployments[0]?.status === 'running');
    expect((await detail(jobId)).deployments[0]?.offline_wait).toBeNull();

    await pc.agent.close();
    const waiting = await eventually(async () => {
      const d = await detail(jobId);
      return d.deployments[0]?.offline_wait ? d : null;
    });
    expect(waiting.status).toBe('running');
    expect(waiting.waiting_offline_devices).toBe(1);
    const wait = waiting.deployments[0]!.offline_wait!;
    expect(Date.parse(wait.offline_since!)).toBeLessThanOrEqual(Date.now());
    // the default expiry: 24 h after the job was dispatched
    expect(Date.parse(wait.expires_at!)).toBeGreaterThan(Date.now() + 23 * HOUR);
    // the 1 s timeout of the running step passes while the agent is away
    const passed = await eventually(async () => {
      const w = (await detail(jobId)).deployments[0]?.offline_wait;
      return w?.step_timeout_passed_at ? w : null;
    });
    expect(passed.expires_at).toBe(wait.expires_at);
    expect(Date.parse(passed.step_timeout_passed_at!)).toBeLessThan(Date.now());

    const portal = connectPortalSocket(server.url, portalAuth(admin));
    await portal.waitFor('connection_status');
    portal.send({ type: 'subscribe', payload: { subscriptionKey: `deployment:${jobId}` } });
    await portal.waitFor('subscribed');

    const ddId = waiting.deployments[0]!.id;
    const res = await call<Envelope<EndWaitingDevicesResponse>>(
      'POST',
      `${API}/${jobId}/waiting-devices/end`,
      {
        action: 'fail',
        device_deployment_ids: [ddId],
      },
    );
    expect(res.status).toBe(200);
    expect(res.body.data.ended).toEqual([ddId]);
    expect(res.body.data.job.status).toBe('failed');
    const reason = deploymentMessages.failedWhileOffline('Alex Morgan');
    const live = await portal.waitFor(
      'deployment_update',
      (m) => m.payload.deviceDeploymentId === ddId && m.payload.deviceStatus === 'failed',
    );
    expect(live.payload.errorMessage).toBe(reason);
    expect(live.payload.status).toBe('failed');
    portal.ws.close();

    const after = await detail(jobId);
    expect(after.deployments[0]).toMatchObject({
      status: 'failed',
      error_message: reason,
      offline_wait: null,
    });
    expect(after.waiting_offline_devices).toBe(0);
    const audit = await call<Envelope<AuditListResponse>>('GET', '/api/customer/audit?limit=20');
    const entry = audit.body.data.data.find((e) => e.action === 'Fail Offline Devices');
    expect(entry?.details).toContain('ow-running');

    // back online, the agent is told to stop the run it held
    const back = await onlineAgent(server.url, pc.creds, { hostname: 'ow-running' });
    const stop = await back.waitFor('command', (m: CommandMessage) => m.command.kind === 'cancel');
    expect(stop.command).toMatchObject({ kind: 'cancel', targetCommandId: commands[0] });
    await back.close();
  });

  it('cancels every waiting device at once; refuses other tenants, other sites, users and bad input', async () => {
    const hqPc = await deviceIn('ow-hq', siteIds.hq);
    const lonPc = await deviceIn('ow-lon', siteIds.lon);
    const stays = await deviceIn('ow-stays', siteIds.hq);
    const { jobId, commands } = await jobOn([hqPc, lonPc, stays]);
    await startStep(stays.agent, commands[2]!);
    // two devices leave before they started: their parts wait, still pending
    await hqPc.agent.close();
    await lonPc.agent.close();
    const waiting = await eventually(async () => {
      const d = await detail(jobId);
      return d.waiting_offline_devices === 2 ? d : null;
    });
    const rowOf = (host: string) => waiting.deployments.find((d) => d.hostname === host)!;
    expect(rowOf('ow-hq')).toMatchObject({
      status: 'pending',
      offline_wait: { step_timeout_passed_at: null },
    });
    expect(rowOf('ow-stays').offline_wait).toBeNull();

    const end = (body: unknown, token = admin.token) =>
      call<ErrorBody>('POST', `${API}/${jobId}/waiting-devices/end`, body, token);
    // another tenant: the job does not exist for them
    const globex = await server.devSignIn('admin@globex.example');
    expect((await end({ action: 'cancel' }, globex.token)).status).toBe(404);
    // a regular user: administrators only
    const tech = await server.devSignIn('tech@acme.example');
    expect((await end({ action: 'cancel' }, tech.token)).status).toBe(403);
    // a London-only administrator: the HQ row is not theirs, and "all" means their London row only
    await call('POST', '/api/customer/users', {
      email: 'ow-london-admin@acme.example',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [siteIds.lon],
    });
    const london = await server.devSignIn('ow-london-admin@acme.example');
    const notTheirs = await end(
      { action: 'cancel', device_deployment_ids: [rowOf('ow-hq').id] },
      london.token,
    );
    expect(notTheirs.status).toBe(404);
    expect(notTheirs.body.error).toBe(deploymentMessages.deviceDeploymentNotFound);
    const theirs = await call<Envelope<EndWaitingDevicesResponse>>(
      'POST',
      `${API}/${jobId}/waiting-devices/end`,
      { action: 'cancel' },
      london.token,
    );
    expect(theirs.body.data.ended).toEqual([rowOf('ow-lon').id]);
    // bad input is a clear 400; a device that is online is not waiting (409)
    expect((await end({ action: 'explode' })).status).toBe(400);
    expect((await end({ action: 'fail', device_deployment_ids: [] })).status).toBe(400);
    const online = await end({ action: 'fail', device_deployment_ids: [rowOf('ow-stays').id] });
    expect(online.status).toBe(409);
    expect(online.body.error).toBe(deploymentMessages.deviceNotWaiting('ow-stays'));

    const all = await call<Envelope<EndWaitingDevicesResponse>>(
      'POST',
      `${API}/${jobId}/waiting-devices/end`,
      {
        action: 'cancel',
      },
    );
    expect(all.body.data.ended).toEqual([rowOf('ow-hq').id]);
    expect(all.body.data.job.status).toBe('running');
    const after = await detail(jobId);
    expect(after.deployments.find((d) => d.hostname === 'ow-hq')).toMatchObject({
      status: 'cancelled',
      error_message: deploymentMessages.cancelledWhileOffline('Alex Morgan'),
    });
    // its command is ended: it is not offered when the device comes back
    const [cmd] = await server.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.id, commands[0]!));
    expect(cmd?.status).toBe('failed');
    expect((await end({ action: 'cancel' })).status).toBe(409);

    await call('POST', `${API}/${jobId}/cancel`);
    await stays.agent.close();
  });
});
