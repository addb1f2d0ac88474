import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import type { DeploymentJob, DeploymentJobDetail, StepLogsResponse } from '@outpost/contract/deployments';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import { packageMessages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { devices } from '../../db/schema/index';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// docs/product/rollouts.md#reboot-message-and-wait-steps: REBOOT, MESSAGE and WAIT steps are
// checked when a package is saved; an agent restarting the device for a step holds its row as
// 'rebooting' (with the note) until its next progress, and step notes reach the step log.

type Envelope<T> = { success: true; data: T };
const API = '/api/customer/deployments';
const PACKAGES = '/api/customer/deployment-packages';

describe('reboot, message and wait steps on the server', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<TestServer['devSignIn']>>;
  let enrollToken: string;
  let messageNo = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    admin = await server.devSignIn('admin@acme.example');
    enrollToken = (await createEnrollmentToken(server, admin.token)).token;
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<T>(method, path, { token: admin.token, body });

  const addStep = (pkgId: number, step_type: string, step_details: Record<string, unknown>) =>
    call<Envelope<unknown> | ApiErrorBody>('POST', `${PACKAGES}/${pkgId}/steps`, {
      step_name: step_type.toLowerCase(),
      step_type,
      step_details,
    });

  it('saves the new steps and refuses out-of-range numbers with the contract’s words', async () => {
    const pkg = await call<Envelope<PackageDetail>>('POST', PACKAGES, { name: 'Device steps' });
    const id = pkg.body.data.id;
    expect((await addStep(id, 'WAIT', { seconds: 30 })).status).toBe(200);
    expect((await addStep(id, 'MESSAGE', { title: 'IT', message: 'Hello' })).status).toBe(200);
    expect((await addStep(id, 'REBOOT', { max_deferrals: 3 })).status).toBe(200);
    const wait = await addStep(id, 'WAIT', { seconds: 86_401 });
    expect(wait.status).toBe(400);
    expect(JSON.stringify(wait.body)).toContain(packageMessages.stepFieldRange('Seconds', 1, 86_400));
    const deferrals = await addStep(id, 'REBOOT', { max_deferrals: 11 });
    expect(deferrals.status).toBe(400);
    expect(JSON.stringify(deferrals.body)).toContain(
      packageMessages.stepFieldRange('Maximum Deferrals', 0, 10),
    );
    const message = await addStep(id, 'MESSAGE', { title: 'IT' });
    expect(message.status).toBe(400);
    expect(JSON.stringify(message.body)).toContain(packageMessages.requiredStepFields(['Message']));
    const detail = await call<Envelope<PackageDetail>>('GET', `${PACKAGES}/${id}`);
    const steps = detail.body.data.steps.map((s) => [s.step_type, s.step_details]);
    expect(steps).toEqual([
      ['WAIT', { seconds: 30 }],
      ['MESSAGE', { title: 'IT', message: 'Hello' }],
      ['REBOOT', { delay_seconds: 60, max_deferrals: 3, deferral_minutes: 60 }],
    ]);
  });

  async function progress(agent: AgentSocket, commandId: string, m: Record<string, unknown>) {
    const messageId = `rb-${++messageNo}`;
    agent.send({ type: 'step_progress', messageId, commandId, ...m } as never);
    await agent.waitFor('ack', (a) => a.messageId === messageId);
  }

  it('holds the row as rebooting with its note until the agent reports again', async () => {
    const creds = (
      await enroll(server, enrollToken, facts({ hostname: 'pc-reboot', machineId: 'mid-reboot' }))
    ).body.data;
    const agent = await onlineAgent(server.url, creds, { hostname: 'pc-reboot' });
    const [device] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const pkg = await call<Envelope<PackageDetail>>('POST', PACKAGES, { name: 'Reboot in the middle' });
    await addStep(pkg.body.data.id, 'MESSAGE', { title: 'IT', message: 'Hi' });
    await addStep(pkg.body.data.id, 'REBOOT', {});
    await addStep(pkg.body.data.id, 'WAIT', { seconds: 1 });
    const job = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkg.body.data.id,
      device_ids: [device!.id],
      job_name: 'Reboot hold',
    });
    expect(job.status).toBe(200);
    const cmd = await agent.waitFor('command', (m: CommandMessage) => m.command.kind === 'run_deployment');
    const row = async () =>
      (await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${job.body.data.id}`)).body.data
        .deployments[0]!;
    const now = new Date().toISOString();
    const note = 'No user is logged in: the message was not shown';
    await progress(agent, cmd.commandId, {
      seq: 1,
      stepOrder: 1,
      attempt: 1,
      status: 'running',
      startedAt: now,
    });
    await progress(agent, cmd.commandId, {
      seq: 2,
      stepOrder: 1,
      attempt: 1,
      status: 'completed',
      completedAt: now,
      note,
    });
    await progress(agent, cmd.commandId, {
      seq: 3,
      stepOrder: 2,
      attempt: 1,
      status: 'running',
      startedAt: now,
    });
    await progress(agent, cmd.commandId, {
      seq: 4,
      stepOrder: 2,
      attempt: 1,
      status: 'completed',
      completedAt: now,
      note: 'Restart ordered (in 60 s)',
    });
    await progress(agent, cmd.commandId, {
      seq: 5,
      stepOrder: 2,
      attempt: 1,
      status: 'completed',
      hold: 'rebooting',
      note: 'Rebooting (restart ordered in 60 s)',
    });
    await eventually(async () => {
      const r = await row();
      return r.hold === 'rebooting' && r;
    }).then((r) => expect(r.hold_note).toBe('Rebooting (restart ordered in 60 s)'));
    // back after the restart: the next message clears the hold
    await progress(agent, cmd.commandId, {
      seq: 6,
      stepOrder: 2,
      attempt: 1,
      status: 'completed',
      note: 'The device restarted',
    });
    await eventually(async () => {
      const r = await row();
      return r.hold == null && r;
    }).then((r) => expect(r.hold_note ?? null).toBeNull());
    const logs = await call<Envelope<StepLogsResponse>>(
      'GET',
      `${API}/device-deployment/${(await row()).id}/logs`,
    );
    const notes = logs.body.data.logs.map((l) => [l.step_order, l.status, l.note]);
    expect(notes).toEqual([
      [1, 'completed', note],
      [2, 'completed', 'The device restarted'],
    ]);
    await agent.close();
  });
});
