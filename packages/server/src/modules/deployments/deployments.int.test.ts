import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { CommandMessage, EnrollResult } from '@outpost/contract/agent-protocol';
import type { DeploymentJob, DeploymentJobDetail, StepLogsResponse } from '@outpost/contract/deployments';
import type { DashboardStats } from '@outpost/contract/devices';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import { deploymentMessages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { devices, sites, userSites, users } from '../../db/schema/index';
import { deviceDeploymentsOfCommands, writeStepProgress } from './engine/agent-progress.queries';
import type { ProgressWrite } from './engine/agent-progress.queries';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  onlineAgent,
  portalAuth,
  sleep,
} from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// The deployment engine over real agent sockets (docs/product/deployments.md#running-on-devices): the API's rules in the product's
// order and words, dispatch now and when scheduled, progress and results applied once, the
// counters following the device rows, offline devices, expiry, cancel and tenant isolation.

type Envelope<T> = { success: true; data: T };
const API = '/api/customer/deployments';

describe('deployments: API and engine', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<TestServer['devSignIn']>>;
  let globex: string;
  let enrollToken: string;
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100',
        DEPLOYMENT_OFFLINE_EXPIRY_MS: '3000',
        AGENT_PRESENCE_GRACE_MS: '0',
      },
    });
    await server.seedDemo();
    admin = await server.devSignIn('admin@acme.example');
    globex = (await server.devSignIn('admin@globex.example')).token;
    enrollToken = (await createEnrollmentToken(server, admin.token)).token;
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown, token = admin.token) =>
    server.request<T>(method, path, { token, body });

  async function device(hostname: string): Promise<{ creds: EnrollResult; id: number; agent: AgentSocket }> {
    const res = await enroll(server, enrollToken, facts({ hostname, machineId: `mid-${hostname}` }));
    const creds = res.body.data;
    const agent = await onlineAgent(server.url, creds, { hostname });
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    return { creds, id: row!.id, agent };
  }

  async function cmdPackage(steps: { name: string; retry?: number; failOnError?: boolean }[]) {
    const pkg = await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
      name: `Deploy test ${++seq}`,
    });
    for (const s of steps) {
      const step = await call('POST', `/api/customer/deployment-packages/${pkg.body.data.id}/steps`, {
        step_name: s.name,
        step_type: 'CMD',
        step_details: JSON.stringify({ command: `echo ${s.name}` }),
        retry_count: s.retry ?? 0,
        fail_deployment_on_error: s.failOnError ?? true,
      });
      expect(step.status).toBe(200);
    }
    return pkg.body.data;
  }

  const create = (body: Record<string, unknown>, token = admin.token) =>
    call<Envelope<DeploymentJob> | ApiErrorBody>('POST', API, body, token);

  const job = async (id: number) =>
    (await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${id}`)).body.data;

  /** The job once it is no longer running. */
  const afterRunning = (id: number) =>
    eventually(async () => {
      const d = await job(id);
      return d.status === 'running' ? null : d;
    });

  const logsOf = async (deviceDeploymentId: number) =>
    (await call<Envelope<StepLogsResponse>>('GET', `${API}/device-deployment/${deviceDeploymentId}/logs`))
      .body.data.logs;

  let progressId = 0;
  /** Reports one step_progress message and waits for its ack. */
  async function progress(agent: AgentSocket, commandId: string, m: Record<string, unknown>) {
    const messageId = `p-${++progressId}`;
    agent.send({
      type: 'step_progress',
      messageId,
      commandId,
      stepOrder: 1,
      status: 'running',
      seq: 1,
      ...m,
    } as never);
    await agent.waitFor('ack', (a) => a.messageId === messageId);
  }

  async function result(
    agent: AgentSocket,
    commandId: string,
    deploymentStatus: string,
    messageId = `r-${++progressId}`,
  ) {
    agent.send({
      type: 'command_result',
      messageId,
      commandId,
      status: deploymentStatus === 'completed' ? 'completed' : 'failed',
      result: { deploymentStatus, rebootRequired: false },
      error: deploymentStatus === 'completed' ? null : 'Step 1 failed',
    });
    await agent.waitFor('ack', (a) => a.messageId === messageId);
  }

  const runCommand = (agent: AgentSocket) =>
    agent.waitFor('command', (m: CommandMessage) => m.command.kind === 'run_deployment');

  describe('create: the dialog’s rules in order, in the spec’s words', () => {
    it('refuses what is missing, one rule at a time', async () => {
      const pc = await device('pc-rules');
      const pkg = await cmdPackage([{ name: 'one' }]);
      const cases: [Record<string, unknown>, number, string][] = [
        [{}, 400, deploymentMessages.selectPackage],
        [{ package_id: pkg.id }, 400, deploymentMessages.selectDevice],
        [
          { package_id: pkg.id, device_ids: [pc.id], job_name: '   ' },
          400,
          deploymentMessages.jobNameRequired,
        ],
        [
          { package_id: pkg.id, device_ids: [pc.id, 2_000_000], job_name: 'x' },
          404,
          deploymentMessages.devicesOffline,
        ],
        [
          { package_id: pkg.id, device_ids: [pc.id], job_name: 'x', scheduled_at: '2020-01-01T00:00:00Z' },
          400,
          deploymentMessages.scheduledInPast,
        ],
        [{ package_id: 2_000_000, device_ids: [pc.id], job_name: 'x' }, 404, 'Package not found'],
      ];
      for (const [body, status, error] of cases) {
        const res = await create(body);
        expect({ body, status: res.status, error: (res.body as ApiErrorBody).error }).toEqual({
          body,
          status,
          error,
        });
      }
      const empty = await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
        name: 'Empty',
      });
      const noSteps = await create({ package_id: empty.body.data.id, device_ids: [pc.id], job_name: 'x' });
      expect(noSteps.status).toBe(400);
      expect((noSteps.body as ApiErrorBody).error).toBe(deploymentMessages.packageHasNoSteps);
      await pc.agent.close();
      await eventually(async () => {
        const [row] = await server.database.db.select().from(devices).where(eq(devices.id, pc.id));
        return row?.status === 'offline';
      });
      const offline = await create({ package_id: pkg.id, device_ids: [pc.id], job_name: 'x' });
      expect(offline.status).toBe(409);
      expect((offline.body as ApiErrorBody).error).toBe(deploymentMessages.devicesOffline);
      // nothing half-written: no job exists for any refused request
      const list = await call<Envelope<{ data: DeploymentJob[] }>>(
        'GET',
        `${API}?search=${encodeURIComponent(pkg.name)}`,
      );
      expect(list.body.data.data).toEqual([]);
    });

    it('hides another tenant’s devices, packages and jobs (404)', async () => {
      const pc = await device('pc-tenant');
      const pkg = await cmdPackage([{ name: 'one' }]);
      const res = await create({ package_id: pkg.id, device_ids: [pc.id], job_name: 'Mine' });
      expect(res.status).toBe(200);
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      expect((await call('GET', `${API}/${id}`, undefined, globex)).status).toBe(404);
      expect((await call('POST', `${API}/${id}/cancel`, undefined, globex)).status).toBe(404);
      expect((await create({ package_id: pkg.id, device_ids: [pc.id], job_name: 'x' }, globex)).status).toBe(
        404,
      );
      const theirs = await call<Envelope<{ data: DeploymentJob[] }>>('GET', API, undefined, globex);
      expect(theirs.body.data.data.map((j) => j.id)).not.toContain(id);
      await call('POST', `${API}/${id}/cancel`);
      await pc.agent.close();
    });
  });

  it('site scope: a site-limited user sees a job by its devices in their sites, and cancels only whole jobs in scope', async () => {
    const [hq, lon] = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, admin.user.tenant_id))
      .orderBy(sites.id);
    const inSite = async (hostname: string, siteId: number) => {
      const t = (await createEnrollmentToken(server, admin.token, { site_id: siteId })).token;
      const creds = (await enroll(server, t, facts({ hostname }))).body.data;
      const agent = await onlineAgent(server.url, creds, { hostname });
      const [row] = await server.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      return { id: row!.id, agent };
    };
    const a = await inSite('pc-site-hq', hq!.id);
    const b = await inSite('pc-site-lon', lon!.id);
    const pkg = await cmdPackage([{ name: 'scoped' }]);
    const both = (await create({ package_id: pkg.id, device_ids: [a.id, b.id], job_name: 'Both sites' }))
      .body as Envelope<DeploymentJob>;
    const lonOnly = (await create({ package_id: pkg.id, device_ids: [b.id], job_name: 'London only' }))
      .body as Envelope<DeploymentJob>;
    const [tech] = await server.database.db.select().from(users).where(eq(users.email, 'tech@acme.example'));
    await server.database.db.update(users).set({ siteAccessType: 'specific' }).where(eq(users.id, tech!.id));
    await server.database.db.insert(userSites).values({ userId: tech!.id, siteId: hq!.id });
    try {
      const t = (await server.devSignIn('tech@acme.example')).token;
      const detail = await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${both.data.id}`, undefined, t);
      expect(detail.status).toBe(200);
      expect(detail.body.data.deployments.map((d) => d.hostname)).toEqual(['pc-site-hq']);
      expect((await call('GET', `${API}/${lonOnly.data.id}`, undefined, t)).status).toBe(404);
      const full = await job(both.data.id);
      const lonRow = full.deployments.find((d) => d.hostname === 'pc-site-lon')!;
      expect((await call('GET', `${API}/device-deployment/${lonRow.id}/logs`, undefined, t)).status).toBe(
        404,
      );
      const refused = await call<ApiErrorBody>('POST', `${API}/${both.data.id}/cancel`, undefined, t);
      expect(refused.status).toBe(403);
      expect(refused.body.error).toBe(deploymentMessages.cancelOutsideScope);
      const listed = await call<Envelope<{ data: DeploymentJob[] }>>('GET', `${API}?limit=100`, undefined, t);
      expect(listed.body.data.data.map((j) => j.id)).toContain(both.data.id);
      expect(listed.body.data.data.map((j) => j.id)).not.toContain(lonOnly.data.id);
    } finally {
      await server.database.db.delete(userSites).where(eq(userSites.userId, tech!.id));
      await server.database.db.update(users).set({ siteAccessType: 'all' }).where(eq(users.id, tech!.id));
    }
    await call('POST', `${API}/${both.data.id}/cancel`);
    await call('POST', `${API}/${lonOnly.data.id}/cancel`);
    await a.agent.close();
    await b.agent.close();
  });

  describe('engine', () => {
    it('runs a job now: progress and output once each, counters exact, duplicate results ignored', async () => {
      const pc = await device('pc-run');
      const pkg = await cmdPackage([{ name: 'first' }, { name: 'second' }]);
      const portal = connectPortalSocket(server.url, portalAuth(admin));
      await portal.waitFor('connection_status');
      const res = await create({ package_id: pkg.id, device_ids: [pc.id], job_name: 'Run now' });
      const created = (res.body as Envelope<DeploymentJob>).data;
      expect(created).toMatchObject({
        name: 'Run now',
        status: 'pending',
        total_devices: 1,
        package_name: pkg.name,
      });
      portal.send({ type: 'subscribe', payload: { subscriptionKey: `deployment:${created.id}` } });
      await portal.waitFor('subscribed');
      // the job's state now follows the subscription, so a change just before it is not missed
      const snapshot = await portal.waitFor('deployment_update');
      expect(snapshot.payload).toMatchObject({
        deploymentId: created.id,
        jobName: 'Run now',
        total_devices: 1,
      });

      const cmd = await runCommand(pc.agent);
      expect(cmd.command).toMatchObject({ kind: 'run_deployment', jobId: created.id, packageName: pkg.name });
      const steps = (cmd.command as { steps: { stepName: string }[] }).steps;
      expect(steps.map((s) => s.stepName)).toEqual(['first', 'second']);

      await progress(pc.agent, cmd.commandId, { seq: 1, attempt: 1 });
      const started = await portal.waitFor('deployment_update', (m) => m.payload.status === 'running');
      expect(started.payload).toMatchObject({ deploymentId: created.id, deviceStatus: 'running' });
      await progress(pc.agent, cmd.commandId, { seq: 2, attempt: 1, stdout: 'first\n' });
      // the same message again (a lost ack): applied once
      await progress(pc.agent, cmd.commandId, { seq: 2, attempt: 1, stdout: 'first\n' });
      const chunk = await portal.waitFor('step_update', (m) => m.payload.stdout === 'first\n');
      expect(chunk.payload).toMatchObject({ stepName: 'first', status: 'running', attempt: 1 });
      await progress(pc.agent, cmd.commandId, { seq: 3, attempt: 1, status: 'completed', exitCode: 0 });
      await progress(pc.agent, cmd.commandId, { seq: 4, stepOrder: 2, attempt: 1 });
      await progress(pc.agent, cmd.commandId, {
        seq: 5,
        stepOrder: 2,
        attempt: 1,
        status: 'completed',
        exitCode: 0,
        stdout: 'second\n',
      });
      expect((await job(created.id)).status).toBe('running');
      await result(pc.agent, cmd.commandId, 'completed', 'result-once');
      const done = await portal.waitFor('deployment_update', (m) => m.payload.status === 'completed');
      expect(done.payload).toMatchObject({ completed_devices: 1, failed_devices: 0, total_devices: 1 });
      // the result resent: still one completed device
      await result(pc.agent, cmd.commandId, 'completed', 'result-once');
      const detail = await job(created.id);
      expect(detail).toMatchObject({ status: 'completed', completed_devices: 1, failed_devices: 0 });
      expect(detail.started_at).not.toBeNull();
      expect(detail.completed_at).not.toBeNull();
      const [dd] = detail.deployments;
      expect(dd).toMatchObject({ status: 'completed', hostname: 'pc-run', current_step_order: 2 });
      const logs = await call<Envelope<StepLogsResponse>>('GET', `${API}/device-deployment/${dd!.id}/logs`);
      expect(logs.body.data.logs.map((l) => [l.step_name, l.status, l.exit_code, l.stdout_log])).toEqual([
        ['first', 'completed', 0, 'first\n'],
        ['second', 'completed', 0, 'second\n'],
      ]);
      expect(logs.body.data.logs[0]!.duration_ms).toBeGreaterThanOrEqual(0);
      await portal.close();
      await pc.agent.close();
    });

    it('logs every attempt of a retried step and fails the job when a device fails', async () => {
      const a = await device('pc-fail-a');
      const b = await device('pc-fail-b');
      const pkg = await cmdPackage([{ name: 'flaky', retry: 1 }]);
      const res = await create({ package_id: pkg.id, device_ids: [a.id, b.id], job_name: 'Mixed' });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      const ca = await runCommand(a.agent);
      const cb = await runCommand(b.agent);
      await progress(a.agent, ca.commandId, { seq: 1 });
      await progress(a.agent, ca.commandId, { seq: 2, status: 'completed', exitCode: 0 });
      await result(a.agent, ca.commandId, 'completed');
      await progress(b.agent, cb.commandId, { seq: 1, attempt: 1 });
      await progress(b.agent, cb.commandId, {
        seq: 2,
        attempt: 1,
        status: 'failed',
        exitCode: 1,
        errorMessage: 'Exit code 1',
      });
      await progress(b.agent, cb.commandId, { seq: 3, attempt: 2 });
      await progress(b.agent, cb.commandId, {
        seq: 4,
        attempt: 2,
        status: 'failed',
        exitCode: 1,
        errorMessage: 'Exit code 1',
      });
      await result(b.agent, cb.commandId, 'failed');
      // the job's counters settle from its device rows just after the result (the settler)
      const detail = await afterRunning(id);
      expect(detail).toMatchObject({
        status: 'failed',
        completed_devices: 1,
        failed_devices: 1,
        total_devices: 2,
      });
      const failed = detail.deployments.find((d) => d.hostname === 'pc-fail-b')!;
      expect(failed).toMatchObject({ status: 'failed', error_message: 'Step 1 failed' });
      const logs = await logsOf(failed.id);
      expect(logs.map((l) => [l.attempt, l.status, l.exit_code])).toEqual([
        [1, 'failed', 1],
        [2, 'failed', 1],
      ]);
      expect(logs[0]!.output).toContain('retried');
      await a.agent.close();
      await b.agent.close();
    });

    it('applies many devices’ progress at once: each message once, durations from the attempt’s start, reboots, restarts', async () => {
      const fleet = await Promise.all(Array.from({ length: 12 }, (_, i) => device(`pc-batch-${i}`)));
      const pkg = await cmdPackage([{ name: 'install' }]);
      const res = await create({ package_id: pkg.id, device_ids: fleet.map((d) => d.id), job_name: 'Batch' });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      const commands = await Promise.all(fleet.map((d) => runCommand(d.agent)));
      const t0 = Date.parse('2026-11-20T10:00:00.000Z');
      const at = (ms: number) => new Date(t0 + ms).toISOString();
      // every device reports at the same moment, so the server takes their messages together
      await Promise.all(
        fleet.map(async (d, i) => {
          const cmd = commands[i]!.commandId;
          await progress(d.agent, cmd, { seq: 1, startedAt: at(0) });
          await progress(d.agent, cmd, { seq: 2, stdout: `out ${i}\n` });
          await progress(d.agent, cmd, { seq: 2, stdout: `out ${i}\n` }); // resent: applied once
          await progress(d.agent, cmd, {
            seq: 3,
            status: 'completed',
            exitCode: i % 2 === 0 ? 3010 : 0,
            stdout: 'done\n',
            completedAt: at(1500 + i),
          });
        }),
      );
      // the last device's agent restarted and ran the command over: its new run replaces the old
      const last = fleet.length - 1;
      await progress(fleet[last]!.agent, commands[last]!.commandId, { seq: 1, startedAt: at(5000) });
      await progress(fleet[last]!.agent, commands[last]!.commandId, {
        seq: 2,
        status: 'failed',
        exitCode: 3_221_225_477, // a Windows crash (0xC0000005), as Node reports it
        errorMessage: 'Exit code 3221225477',
        completedAt: at(5250),
      });
      await Promise.all(
        fleet.map((d, i) => result(d.agent, commands[i]!.commandId, i === last ? 'failed' : 'completed')),
      );
      const detail = await afterRunning(id);
      expect(detail).toMatchObject({
        status: 'failed',
        total_devices: 12,
        completed_devices: 11,
        failed_devices: 1,
      });
      for (const [i, d] of fleet.entries()) {
        const row = detail.deployments.find((r) => r.device_guid === d.creds.device_guid)!;
        const logs = await logsOf(row.id);
        if (i === last) {
          expect(row).toMatchObject({ status: 'failed', reboot_required: false });
          expect(logs.map((l) => [l.status, l.exit_code, l.stdout_log, l.duration_ms])).toEqual([
            ['failed', 3_221_225_477, '', 250],
          ]);
          continue;
        }
        const isReboot = i % 2 === 0;
        expect(row).toMatchObject({ status: 'completed', reboot_required: isReboot, current_step_order: 1 });
        expect(logs).toHaveLength(1);
        expect(logs[0]).toMatchObject({
          step_name: 'install',
          status: 'completed',
          exit_code: isReboot ? 3010 : 0,
          stdout_log: `out ${i}\ndone\n`,
          duration_ms: 1500 + i,
          output: isReboot ? 'Reboot required (exit code 3010)' : null,
        });
      }
      await Promise.all(fleet.map((d) => d.agent.close()));
    });

    it('applies a device’s progress sent at once together, and acknowledges it in lists only to an agent that takes them', async () => {
      const pkg = await cmdPackage([{ name: 'first' }, { name: 'second' }]);
      const newer = await device('pc-ack-lists');
      // an older agent: its hello lists no capabilities
      const older = await device('pc-single-acks');
      // the newer one says hello again on a new socket, listing ack_lists
      await newer.agent.close();
      newer.agent = await onlineAgent(server.url, newer.creds, {
        hostname: 'pc-ack-lists',
        capabilities: ['ack_lists'],
      });
      const fleet = [newer, older];
      const res = await create({ package_id: pkg.id, device_ids: fleet.map((d) => d.id), job_name: 'Runs' });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      const commands = await Promise.all(fleet.map((d) => runCommand(d.agent)));
      const at = (ms: number) => new Date(Date.parse('2026-11-20T10:00:00.000Z') + ms).toISOString();
      const sent = fleet.map((d, i) => {
        const commandId = commands[i]!.commandId;
        const messages = [
          { seq: 1, stepOrder: 1, startedAt: at(0) },
          { seq: 2, stepOrder: 1, stdout: 'one\n' },
          { seq: 2, stepOrder: 1, stdout: 'one\n' }, // resent: applied once
          { seq: 3, stepOrder: 1, status: 'completed', exitCode: 0, stdout: 'two\n', completedAt: at(400) },
          // a coalesced attempt: start, output and end in one message
          {
            seq: 4,
            stepOrder: 2,
            status: 'completed',
            exitCode: 3010,
            startedAt: at(500),
            completedAt: at(800),
            stdout: 'x\n',
          },
        ].map((m, n) => ({
          type: 'step_progress',
          messageId: `run-${i}-${n}`,
          commandId,
          attempt: 1,
          status: 'running',
          ...m,
        }));
        for (const m of messages) {
          d.agent.send(m as never); // without waiting for acks: the server may take them as one run
        }
        return messages.map((m) => m.messageId);
      });
      const acked = (agent: AgentSocket) =>
        agent.ofType('ack').flatMap((a) => [a.messageId, ...(a.messageIds ?? [])]);
      await eventually(() =>
        Promise.resolve(fleet.every((d, i) => sent[i]!.every((m) => acked(d.agent).includes(m))) || null),
      );
      // every message acknowledged once; the older agent only ever one per frame
      expect(acked(newer.agent).sort()).toEqual([...sent[0]!].sort());
      expect(acked(older.agent).sort()).toEqual([...sent[1]!].sort());
      expect(older.agent.ofType('ack').every((a) => a.messageIds === undefined)).toBe(true);
      await Promise.all(fleet.map((d, i) => result(d.agent, commands[i]!.commandId, 'completed')));
      const detail = await afterRunning(id);
      expect(detail).toMatchObject({ status: 'completed', total_devices: 2, completed_devices: 2 });
      for (const row of detail.deployments) {
        expect(row).toMatchObject({ reboot_required: true, current_step_order: 2 });
        const logs = await logsOf(row.id);
        expect(logs.map((l) => [l.step_order, l.status, l.exit_code, l.stdout_log, l.duration_ms])).toEqual([
          [1, 'completed', 0, 'one\ntwo\n', 400],
          [2, 'completed', 3010, 'x\n', 300],
        ]);
      }
      await Promise.all(fleet.map((d) => d.agent.close()));
    });

    it('results in batches: a result sent twice at once counts once, an unknown or another device’s command changes nothing', async () => {
      const fleet = await Promise.all(Array.from({ length: 8 }, (_, i) => device(`pc-results-${i}`)));
      const pkg = await cmdPackage([{ name: 'only' }]);
      const res = await create({
        package_id: pkg.id,
        device_ids: fleet.map((d) => d.id),
        job_name: 'Results',
      });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      const commands = await Promise.all(fleet.map((d) => runCommand(d.agent)));
      await Promise.all(
        fleet.map((d, i) =>
          progress(d.agent, commands[i]!.commandId, { seq: 1, startedAt: new Date().toISOString() }),
        ),
      );
      // a command id nobody issued, and the first device's command reported by the second device
      const stranger = fleet[1]!.agent;
      const unknownId = '00000000-0000-4000-8000-000000000001';
      for (const commandId of [unknownId, commands[0]!.commandId]) {
        const messageId = `stranger-${commandId}`;
        stranger.send({
          type: 'command_result',
          messageId,
          commandId,
          status: 'failed',
          result: { deploymentStatus: 'failed', rebootRequired: false },
          error: 'not mine',
        });
        await stranger.waitFor('error', (e) => e.code === 'unknown_command' && e.messageId === messageId);
        await stranger.waitFor('ack', (a) => a.messageId === messageId);
        // progress for a command that is not the device's writes nothing either
        await progress(stranger, commandId, { seq: 9, status: 'failed', exitCode: 1, stdout: 'not mine\n' });
      }
      // every device sends its result twice at the same moment (a resend racing the original)
      await Promise.all(
        fleet.flatMap((d, i) => [
          result(d.agent, commands[i]!.commandId, i % 4 === 0 ? 'failed' : 'completed', `twice-a-${i}`),
          result(d.agent, commands[i]!.commandId, i % 4 === 0 ? 'failed' : 'completed', `twice-b-${i}`),
        ]),
      );
      const detail = await afterRunning(id);
      expect(detail).toMatchObject({
        status: 'failed',
        total_devices: 8,
        completed_devices: 6,
        failed_devices: 2,
      });
      const first = detail.deployments.find((r) => r.device_guid === fleet[0]!.creds.device_guid)!;
      expect(first).toMatchObject({ status: 'failed', error_message: 'Step 1 failed' });
      const logs = await logsOf(first.id);
      expect(logs.map((l) => [l.status, l.stdout_log])).toEqual([['failed', '']]); // closed with its row
      await Promise.all(fleet.map((d) => d.agent.close()));
    });

    it('a batch the database refuses is written message by message: the others once, the refused one unacknowledged until it is sent again', async () => {
      const db = server.database.db;
      // the fault: the database refuses any log holding this text (a trigger, dropped below)
      await db.execute(sql`
        create or replace function refuse_marked_log() returns trigger language plpgsql as $$
        begin
          if new.stdout_log like '%REFUSE-ME%' then raise exception 'refused by the test'; end if;
          return new;
        end $$`);
      await db.execute(sql`
        create trigger refuse_marked_log before insert or update on deployment_step_logs
        for each row execute function refuse_marked_log()`);
      try {
        const fleet = await Promise.all(Array.from({ length: 8 }, (_, i) => device(`pc-refused-${i}`)));
        const pkg = await cmdPackage([{ name: 'step' }]);
        const res = await create({
          package_id: pkg.id,
          device_ids: fleet.map((d) => d.id),
          job_name: 'Refused',
        });
        const id = (res.body as Envelope<DeploymentJob>).data.id;
        const commands = await Promise.all(fleet.map((d) => runCommand(d.agent)));
        await Promise.all(fleet.map((d, i) => progress(d.agent, commands[i]!.commandId, { seq: 1 })));
        const refused = fleet[3]!;
        const refusedId = 'refused-once';
        const errorsBefore = refused.agent.ofType('error').length;
        refused.agent.send({
          type: 'step_progress',
          messageId: refusedId,
          commandId: commands[3]!.commandId,
          stepOrder: 1,
          status: 'running',
          seq: 2,
          stdout: 'REFUSE-ME\n',
        });
        // the others report at the same moment, so they share the refused message's batch
        await Promise.all(
          fleet.map((d, i) =>
            i === 3
              ? Promise.resolve()
              : progress(d.agent, commands[i]!.commandId, { seq: 2, stdout: `out ${i}\n` }),
          ),
        );
        await refused.agent.waitFor('error', (e) => e.code === 'internal_error', 10_000, errorsBefore);
        expect(refused.agent.ofType('ack').some((a) => a.messageId === refusedId)).toBe(false);
        await db.execute(sql`drop trigger refuse_marked_log on deployment_step_logs`);
        // the agent resends what was not acknowledged (after a reconnect): now it is applied, once
        for (const messageId of [refusedId, `${refusedId}-again`]) {
          refused.agent.send({
            type: 'step_progress',
            messageId,
            commandId: commands[3]!.commandId,
            stepOrder: 1,
            status: 'running',
            seq: 2,
            stdout: 'REFUSE-ME\n',
          });
          await refused.agent.waitFor('ack', (a) => a.messageId === messageId);
        }
        await Promise.all(
          fleet.map(async (d, i) => {
            await progress(d.agent, commands[i]!.commandId, { seq: 3, status: 'completed', exitCode: 0 });
            await result(d.agent, commands[i]!.commandId, 'completed');
          }),
        );
        const detail = await afterRunning(id);
        expect(detail).toMatchObject({
          status: 'completed',
          total_devices: 8,
          completed_devices: 8,
          failed_devices: 0,
        });
        for (const [i, d] of fleet.entries()) {
          const row = detail.deployments.find((r) => r.device_guid === d.creds.device_guid)!;
          const logs = await logsOf(row.id);
          expect(logs.map((l) => [l.status, l.stdout_log])).toEqual([
            ['completed', i === 3 ? 'REFUSE-ME\n' : `out ${i}\n`],
          ]);
        }
        await Promise.all(fleet.map((d) => d.agent.close()));
      } finally {
        await db.execute(sql`drop trigger if exists refuse_marked_log on deployment_step_logs`);
        await db.execute(sql`drop function if exists refuse_marked_log()`);
      }
    });

    it('writes progress only while its device row is as it was read: a row changed in between is left for the locked pass', async () => {
      const pc = await device('pc-as-read');
      const pkg = await cmdPackage([{ name: 'step' }]);
      const res = await create({ package_id: pkg.id, device_ids: [pc.id], job_name: 'As read' });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      const cmd = await runCommand(pc.agent);
      await progress(pc.agent, cmd.commandId, { seq: 1 });
      const db = server.database.db;
      const [row] = await deviceDeploymentsOfCommands(db, [{ deviceId: pc.id, commandId: cmd.commandId }], {
        lock: false,
      });
      expect(row).toMatchObject({ status: 'running', progressSeq: 1 });
      const write = (expectedSeq: number, seq: number, stdout: string): ProgressWrite => ({
        id: row!.id,
        expectedSeq,
        expectedStatus: 'running',
        progressSeq: seq,
        currentStepOrder: 1,
        startedAt: null,
        logs: [{ stepOrder: 1, stepName: 'step', attempt: 1, status: 'running', stdoutLog: stdout }],
      });
      // read at seq 0, but the row is at seq 1 now: nothing is written
      const stale = await writeStepProgress(db, [write(0, 2, 'stale\n')], [3010]);
      expect(stale).toEqual({ rows: new Set(), logs: [] });
      const fresh = await writeStepProgress(db, [write(1, 2, 'fresh\n')], [3010]);
      expect([...fresh.rows]).toEqual([row!.id]);
      expect(fresh.logs).toMatchObject([
        { deviceDeploymentId: row!.id, stepOrder: 1, attempt: 1, status: 'running' },
      ]);
      await result(pc.agent, cmd.commandId, 'completed');
      const detail = await afterRunning(id);
      expect(detail.status).toBe('completed');
      const logs = await logsOf(detail.deployments[0]!.id);
      expect(logs.map((l) => [l.status, l.stdout_log])).toEqual([['cancelled', 'fresh\n']]);
      await pc.agent.close();
    });

    it('keeps a scheduled job pending until it is due, then runs it', async () => {
      const pc = await device('pc-scheduled');
      const pkg = await cmdPackage([{ name: 'later' }]);
      const at = new Date(Date.now() + 2500).toISOString();
      const res = await create({
        package_id: pkg.id,
        device_ids: [pc.id],
        job_name: 'Later',
        scheduled_at: at,
      });
      const created = (res.body as Envelope<DeploymentJob>).data;
      expect(created).toMatchObject({ status: 'pending', scheduled_at: at });
      await sleep(800);
      expect(pc.agent.received.some((m) => m.type === 'command')).toBe(false);
      const cmd = await runCommand(pc.agent);
      expect(Date.now()).toBeGreaterThanOrEqual(new Date(at).getTime());
      expect(cmd.command).toMatchObject({ jobId: created.id });
      await result(pc.agent, cmd.commandId, 'completed');
      await eventually(async () => (await job(created.id)).status === 'completed');
      await pc.agent.close();
    });

    it('gives an offline device its work when it reconnects, and fails it after the expiry', async () => {
      const back = await device('pc-comes-back');
      const gone = await device('pc-stays-away');
      const pkg = await cmdPackage([{ name: 'wait' }]);
      const at = new Date(Date.now() + 1500).toISOString();
      const res = await create({
        package_id: pkg.id,
        device_ids: [back.id, gone.id],
        job_name: 'Offline',
        scheduled_at: at,
      });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      await back.agent.close();
      await gone.agent.close();
      // due while both are offline; one returns within the expiry (3 s) and runs it
      await sleep(2000);
      const again = await onlineAgent(server.url, back.creds, { hostname: 'pc-comes-back' });
      const cmd = await runCommand(again);
      await result(again, cmd.commandId, 'completed');
      const detail = await eventually(async () => {
        const d = await job(id);
        return d.status === 'failed' ? d : null;
      }, 15_000);
      expect(detail).toMatchObject({ completed_devices: 1, failed_devices: 1 });
      const expired = detail.deployments.find((d) => d.hostname === 'pc-stays-away')!;
      expect(expired.error_message).toBe(deploymentMessages.deviceNeverOnline(1));
      await again.close();
    });

    it('cancels: pending rows end at once, the running agent is told to stop, late reports change nothing', async () => {
      const pc = await device('pc-cancel');
      const pkg = await cmdPackage([{ name: 'long' }]);
      const res = await create({ package_id: pkg.id, device_ids: [pc.id], job_name: 'Cancel me' });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      const cmd = await runCommand(pc.agent);
      await progress(pc.agent, cmd.commandId, { seq: 1 });
      // the package is in use: it cannot be deleted now
      const del = await call<ApiErrorBody>('DELETE', `/api/customer/deployment-packages/${pkg.id}`);
      expect(del.status).toBe(409);
      const stats = await call<Envelope<DashboardStats>>('GET', '/api/customer/devices/stats/dashboard');
      expect(stats.body.data.runningDeployments).toBeGreaterThanOrEqual(1);

      const cancelled = await call<Envelope<DeploymentJob>>('PUT', `${API}/${id}/cancel`);
      expect(cancelled.status).toBe(200);
      expect(cancelled.body.data.status).toBe('cancelled');
      const stop = await pc.agent.waitFor('command', (m: CommandMessage) => m.command.kind === 'cancel');
      expect(stop.command).toEqual({ kind: 'cancel', targetCommandId: cmd.commandId });
      await progress(pc.agent, cmd.commandId, { seq: 2, status: 'cancelled' });
      await result(pc.agent, cmd.commandId, 'cancelled');
      const detail = await job(id);
      expect(detail).toMatchObject({ status: 'cancelled', completed_devices: 0, failed_devices: 0 });
      expect(detail.deployments[0]).toMatchObject({ status: 'cancelled' });
      const again = await call<ApiErrorBody>('POST', `${API}/${id}/cancel`);
      expect(again.status).toBe(409);
      expect(again.body.error).toBe(deploymentMessages.notCancellable('cancelled'));
      expect((await call('DELETE', `/api/customer/deployment-packages/${pkg.id}`)).status).toBe(200);
      await pc.agent.close();
    });

    it('lets an agent download only the files of its own unfinished jobs, with their sha256', async () => {
      const mine = await device('pc-files');
      const other = await device('pc-no-files');
      const form = new FormData();
      form.append('file', new Blob(['#!/bin/sh\necho setup\n']), 'setup.sh');
      const uploaded = (await (
        await fetch(`${server.url}/api/customer/files`, {
          method: 'POST',
          headers: { authorization: `Bearer ${admin.token}` },
          body: form,
        })
      ).json()) as Envelope<{ id: number; originalFilename: string }>;
      const pkg = (
        await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
          name: 'With a file',
        })
      ).body.data;
      await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
        step_name: 'Install',
        step_type: 'EXE',
        step_details: JSON.stringify({ source_type: 'upload', file: uploaded.data }),
      });
      const res = await create({ package_id: pkg.id, device_ids: [mine.id], job_name: 'Files' });
      const id = (res.body as Envelope<DeploymentJob>).data.id;
      const cmd = await runCommand(mine.agent);
      if (cmd.command.kind !== 'run_deployment') {
        throw new Error('expected a run_deployment command');
      }
      const ref = cmd.command.steps[0]!.stepDetails.file as { id: number; sha256?: string };
      expect(ref.sha256).toMatch(/^[0-9a-f]{64}$/);
      const get = (creds: EnrollResult | null, secret?: string) =>
        fetch(`${server.url}/api/agent/files/${uploaded.data.id}`, {
          headers: creds
            ? {
                'x-outpost-device': creds.device_guid,
                authorization: `Bearer ${secret ?? creds.agent_secret}`,
              }
            : {},
        });
      const ok = await get(mine.creds);
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-content-sha256')).toBe(ref.sha256);
      expect(await ok.text()).toBe('#!/bin/sh\necho setup\n');
      expect((await get(other.creds)).status).toBe(404);
      expect((await get(mine.creds, 'wrong-secret')).status).toBe(401);
      expect((await get(null)).status).toBe(401);
      // once the job has ended, the file is no longer the device's to fetch
      await call('POST', `${API}/${id}/cancel`);
      expect((await get(mine.creds)).status).toBe(404);
      await mine.agent.close();
      await other.agent.close();
    });

    it('lists jobs with status filter and search, newest first', async () => {
      const res = await call<Envelope<{ data: DeploymentJob[]; pagination: { total: number } }>>(
        'GET',
        `${API}?status=cancelled&search=cancel`,
      );
      expect(res.status).toBe(200);
      expect(res.body.data.data.length).toBeGreaterThanOrEqual(1);
      expect(res.body.data.data.every((j) => j.status === 'cancelled')).toBe(true);
      const bad = await call<ApiErrorBody>('GET', `${API}?status=bogus`);
      expect(bad.status).toBe(400);
      expect((await call('GET', `${API}/device-deployment/2000000/logs`)).status).toBe(404);
    });
  });
});
