import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { CommandMessage } from '@outpost/contract/agent-protocol';
import type { DeploymentJob, DeploymentJobDetail, StepLogsResponse } from '@outpost/contract/deployments';
import { deploymentMessages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { devices } from '../../db/schema/index';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// docs/product/deployments.md#details Deployment details — the details show the step a device is at or failed at, and the
// steps that never ran as not run. The agent reports those as 'cancelled' with no attempt and no
// start (agent deployment-loop.ts); they are no attempt.

type Envelope<T> = { success: true; data: T };
const API = '/api/customer/deployments';

describe('deployment results: the step that ran', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<TestServer['devSignIn']>>;
  let enrollToken: string;
  let n = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    admin = await server.devSignIn('admin@acme.example');
    enrollToken = (await createEnrollmentToken(server, admin.token)).token;
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<T>(method, path, { token: admin.token, body });

  /** A device online and a job of three CMD steps for it (now, or at `scheduledAt`). */
  async function createJob(hostname: string, scheduledAt?: string) {
    const creds = (await enroll(server, enrollToken, facts({ hostname, machineId: `mid-${hostname}` }))).body
      .data;
    const agent = await onlineAgent(server.url, creds, { hostname });
    const [device] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const pkg = await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
      name: `Step truth ${++n}`,
    });
    for (const name of ['Create folder', 'Install', 'PowerShell check']) {
      const res = await call('POST', `/api/customer/deployment-packages/${pkg.body.data.id}/steps`, {
        step_name: name,
        step_type: 'CMD',
        step_details: JSON.stringify({ command: 'echo ok' }),
      });
      expect(res.status).toBe(200);
    }
    const job = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkg.body.data.id,
      device_ids: [device!.id],
      job_name: `Step truth ${n}`,
      ...(scheduledAt && { scheduled_at: scheduledAt }),
    });
    expect(job.status).toBe(200);
    return { agent, jobId: job.body.data.id };
  }

  async function runningJob(hostname: string) {
    const { agent, jobId } = await createJob(hostname);
    const cmd = await agent.waitFor('command', (m: CommandMessage) => m.command.kind === 'run_deployment');
    return { agent, commandId: cmd.commandId, jobId };
  }

  let messageNo = 0;
  async function send(agent: AgentSocket, m: Record<string, unknown>) {
    const messageId = `st-${++messageNo}`;
    agent.send({ messageId, ...m } as never);
    await agent.waitFor('ack', (a) => a.messageId === messageId);
  }

  /** The agent's reports of a run whose step 2 fails: step 3 is reported as not run. */
  async function failAtStepTwo(agent: AgentSocket, commandId: string) {
    const at = new Date().toISOString();
    const step = (seq: number, stepOrder: number, fields: Record<string, unknown>) =>
      send(agent, { type: 'step_progress', commandId, seq, stepOrder, ...fields });
    await step(1, 1, { status: 'running', attempt: 1, startedAt: at });
    await step(2, 1, { status: 'completed', attempt: 1, exitCode: 0, startedAt: at, completedAt: at });
    await step(3, 2, { status: 'running', attempt: 1, startedAt: at });
    await step(4, 2, { status: 'failed', attempt: 1, exitCode: 1, startedAt: at, completedAt: at });
    await step(5, 3, { status: 'cancelled', errorMessage: deploymentMessages.notRunEarlierFailed });
    await send(agent, {
      type: 'command_result',
      commandId,
      status: 'failed',
      result: { deploymentStatus: 'failed', rebootRequired: false },
      error: 'Step 2 failed',
    });
  }

  const deviceRow = async (jobId: number) =>
    (await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${jobId}`)).body.data.deployments[0]!;

  it('a device that failed at step 2 shows step 2 as its current step, not the step after it', async () => {
    const { agent, commandId, jobId } = await runningJob('pc-truth-step');
    await failAtStepTwo(agent, commandId);
    const row = await deviceRow(jobId);
    expect(row.status).toBe('failed');
    expect([row.current_step_order, row.current_step_name]).toEqual([2, 'Install']);
    await agent.close();
  });

  it('a step that never ran has no attempt: no log, so the dialog reads "Not run"', async () => {
    const { agent, commandId, jobId } = await runningJob('pc-truth-not-run');
    await failAtStepTwo(agent, commandId);
    const row = await deviceRow(jobId);
    const logs = (await call<Envelope<StepLogsResponse>>('GET', `${API}/device-deployment/${row.id}/logs`))
      .body.data.logs;
    expect(logs.map((l) => [l.step_order, l.attempt, l.status])).toEqual([
      [1, 1, 'completed'],
      [2, 1, 'failed'],
    ]);
    await agent.close();
  });

  it('a run cancelled before its first step does not start the device', async () => {
    const { agent, commandId, jobId } = await runningJob('pc-truth-never');
    for (const [seq, stepOrder] of [
      [1, 1],
      [2, 2],
      [3, 3],
    ] as const) {
      await send(agent, {
        type: 'step_progress',
        commandId,
        seq,
        stepOrder,
        status: 'cancelled',
        errorMessage: 'Cancelled',
      });
    }
    const row = await deviceRow(jobId);
    expect(row).toMatchObject({ status: 'pending', started_at: null, current_step_order: null });
    await agent.close();
  });

  it('a scheduled job cancelled before it ran never started', async () => {
    const later = new Date(Date.now() + 3 * 3600_000).toISOString();
    const { agent, jobId } = await createJob('pc-truth-scheduled', later);
    expect((await call('PUT', `${API}/${jobId}/cancel`)).status).toBe(200);
    const job = (await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${jobId}`)).body.data;
    expect(job).toMatchObject({ status: 'cancelled', started_at: null });
    expect(job.completed_at).not.toBeNull();
    expect(job.deployments.map((d) => [d.status, d.started_at])).toEqual([['cancelled', null]]);
    await agent.close();
  });
});
