import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AgentErrorMessage, CommandMessage } from '@outpost/contract/agent-protocol';
import type { DeploymentJob, DeploymentJobDetail, StepLogsResponse } from '@outpost/contract/deployments';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import { STEP_LOG_MAX_CHARS, STEP_LOG_MAX_PAGE_SIZE } from '@outpost/contract/limits';
import { deploymentMessages } from '@outpost/contract/messages';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deploymentStepLogs, devices } from '../../db/schema/index';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// SECURITY.md R2-13: an agent writes step logs only for its job's steps and attempts, each stream
// of an attempt is kept to its head and tail with the cut said, and the logs come a page at a time.

type Envelope<T> = { success: true; data: T };
const API = '/api/customer/deployments';

describe('step logs: bounded by the job, per attempt and per page', () => {
  let server: TestServer;
  let admin: Awaited<ReturnType<TestServer['devSignIn']>>;
  let enrollToken: string;
  let seq = 0;
  let messageNo = 0;

  beforeAll(async () => {
    server = await startTestServer({ env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100' } });
    await server.seedDemo();
    admin = await server.devSignIn('admin@acme.example');
    enrollToken = (await createEnrollmentToken(server, admin.token)).token;
  });
  afterAll(async () => server?.close());

  const call = <T>(method: string, path: string, body?: unknown, token = admin.token) =>
    server.request<T>(method, path, { token, body });

  /** A device online, a job of `steps` CMD steps (each with `retry` retries) sent to it. */
  async function runningJob(hostname: string, steps: number, retry = 0) {
    const creds = (await enroll(server, enrollToken, facts({ hostname, machineId: `mid-${hostname}` }))).body
      .data;
    const agent = await onlineAgent(server.url, creds, { hostname });
    const [device] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    const pkg = await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
      name: `Step logs ${++seq}`,
    });
    for (let i = 1; i <= steps; i++) {
      const res = await call('POST', `/api/customer/deployment-packages/${pkg.body.data.id}/steps`, {
        step_name: `step ${i}`,
        step_type: 'CMD',
        step_details: JSON.stringify({ command: `echo ${i}` }),
        retry_count: retry,
      });
      expect(res.status).toBe(200);
    }
    const job = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkg.body.data.id,
      device_ids: [device!.id],
      job_name: `Logs ${seq}`,
    });
    expect(job.status).toBe(200);
    const cmd = await agent.waitFor('command', (m: CommandMessage) => m.command.kind === 'run_deployment');
    const detail = await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${job.body.data.id}`);
    return { agent, commandId: cmd.commandId, ddId: detail.body.data.deployments[0]!.id };
  }

  /**
   * Sends one step_progress and waits for its ack; answers the error sent for it, if any (the
   * server sends a refusal before the ack, and the socket keeps their order).
   */
  async function progress(agent: AgentSocket, commandId: string, m: Record<string, unknown>) {
    const messageId = `sl-${++messageNo}`;
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
    return agent.ofType('error').find((e: AgentErrorMessage) => e.messageId === messageId) ?? null;
  }

  const logRows = (ddId: number) =>
    server.database.db
      .select()
      .from(deploymentStepLogs)
      .where(eq(deploymentStepLogs.deviceDeploymentId, ddId));

  const logsPage = (ddId: number, query = '') =>
    call<Envelope<StepLogsResponse> | ApiErrorBody>('GET', `${API}/device-deployment/${ddId}/logs${query}`);

  it('refuses progress for a step the job does not have, or an attempt beyond its retries, and acknowledges it', async () => {
    const { agent, commandId, ddId } = await runningJob('pc-bounds', 2, 1);
    expect(await progress(agent, commandId, { seq: 1, stepOrder: 1, stdout: 'ok\n' })).toBeNull();
    // the probe: many messages with step numbers beyond the package, 60 KB of output each
    const big = 'x'.repeat(60_000);
    for (let i = 0; i < 5; i++) {
      const error = await progress(agent, commandId, { seq: 2 + i, stepOrder: 3 + i, stdout: big });
      expect(error?.code).toBe('invalid_message');
      expect(error?.message).toContain(deploymentMessages.progressUnknownStep(3 + i));
    }
    // step 2 has one retry: attempts 1 and 2 are its own, attempt 3 is not
    expect(await progress(agent, commandId, { seq: 10, stepOrder: 2, attempt: 2 })).toBeNull();
    const beyond = await progress(agent, commandId, { seq: 11, stepOrder: 2, attempt: 3, stdout: big });
    expect(beyond?.message).toContain(deploymentMessages.progressUnknownAttempt(2, 3, 2));
    // a refused message is not written and moves nothing: what follows is still applied
    expect(
      await progress(agent, commandId, { seq: 12, stepOrder: 2, attempt: 2, stdout: 'two\n' }),
    ).toBeNull();
    const rows = await logRows(ddId);
    expect(rows.map((r) => [r.stepOrder, r.attempt, r.stdoutLog]).sort()).toEqual([
      [1, 1, 'ok\n'],
      [2, 2, 'two\n'],
    ]);
    await agent.close();
  });

  it('keeps the head and the tail of each stream of an attempt and says how many bytes were cut', async () => {
    const { agent, commandId, ddId } = await runningJob('pc-cut', 1);
    const chunk = (c: string) => c.repeat(60_000);
    // 360,000 characters over six messages; 'é' (cut) is two bytes in UTF-8
    const letters = ['a', 'b', 'é', 'd', 'e', 'f'];
    for (const [i, c] of letters.entries()) {
      expect(await progress(agent, commandId, { seq: i + 1, stdout: chunk(c), stderr: 'warn\n' })).toBeNull();
    }
    const [row] = await logRows(ddId);
    const half = STEP_LOG_MAX_CHARS / 2;
    const sent = letters.map(chunk).join('');
    const kept = sent.slice(0, half) + sent.slice(sent.length - half);
    expect(row!.stdoutLog.length).toBe(STEP_LOG_MAX_CHARS);
    expect(row!.stdoutLog).toBe(kept);
    const cut = sent.slice(half, sent.length - half);
    expect(row!.stdoutCutBytes).toBe(Buffer.byteLength(cut));
    expect(row!.stdoutCutBytes).toBeGreaterThan(cut.length); // some of the cut 'é's were two bytes
    expect(row!.stderrCutBytes).toBe(0);
    expect(row!.stderrLog).toBe('warn\n'.repeat(6));

    const res = await logsPage(ddId);
    const [log] = (res.body as Envelope<StepLogsResponse>).data.logs;
    expect(log!.stdout_log).toBe(
      sent.slice(0, half) +
        deploymentMessages.stepLogCut(Buffer.byteLength(cut)) +
        sent.slice(sent.length - half),
    );
    expect(log!.stderr_log).toBe('warn\n'.repeat(6));
    await agent.close();
  });

  it('cuts one message longer than the limit on its own (a run of messages merged)', async () => {
    const { agent, commandId, ddId } = await runningJob('pc-one-big', 1);
    // five frames sent at once are handed over as one run and merged into one write
    const ids = [1, 2, 3, 4, 5].map((i) => `run-${++messageNo}-${i}`);
    for (const [i, messageId] of ids.entries()) {
      agent.send({
        type: 'step_progress',
        messageId,
        commandId,
        stepOrder: 1,
        status: 'running',
        seq: i + 1,
        stdout: String(i).repeat(65_000),
      });
    }
    for (const messageId of ids) {
      await agent.waitFor(
        'ack',
        (a) => a.messageId === messageId || a.messageIds?.includes(messageId) === true,
      );
    }
    const [row] = await logRows(ddId);
    const sent = [0, 1, 2, 3, 4].map((i) => String(i).repeat(65_000)).join('');
    const half = STEP_LOG_MAX_CHARS / 2;
    expect(row!.stdoutLog).toBe(sent.slice(0, half) + sent.slice(sent.length - half));
    expect(row!.stdoutCutBytes).toBe(sent.length - STEP_LOG_MAX_CHARS);
    await agent.close();
  });

  it('answers the logs a page at a time, in step order then attempt', async () => {
    const { agent, commandId, ddId } = await runningJob('pc-pages', 5, 2);
    let n = 0;
    for (let step = 1; step <= 5; step++) {
      for (let attempt = 1; attempt <= 3; attempt++) {
        const status = attempt === 3 ? 'completed' : 'failed';
        expect(await progress(agent, commandId, { seq: ++n, stepOrder: step, attempt, status })).toBeNull();
      }
    }
    const first = (await logsPage(ddId, '?limit=4')).body as Envelope<StepLogsResponse>;
    expect(first.data.pagination).toEqual({ page: 1, limit: 4, total: 15, totalPages: 4 });
    expect(first.data.logs.map((l) => [l.step_order, l.attempt])).toEqual([
      [1, 1],
      [1, 2],
      [1, 3],
      [2, 1],
    ]);
    const last = (await logsPage(ddId, '?limit=4&page=4')).body as Envelope<StepLogsResponse>;
    expect(last.data.logs.map((l) => [l.step_order, l.attempt])).toEqual([
      [5, 1],
      [5, 2],
      [5, 3],
    ]);
    const byDefault = (await logsPage(ddId)).body as Envelope<StepLogsResponse>;
    expect(byDefault.data.logs).toHaveLength(10);
    expect(byDefault.data.pagination.total).toBe(15);
    const tooMany = await logsPage(ddId, `?limit=${STEP_LOG_MAX_PAGE_SIZE + 1}`);
    expect(tooMany.status).toBe(400);
    await agent.close();
  });

  it('keeps another tenant out of the logs (404)', async () => {
    const { agent, ddId } = await runningJob('pc-isolated', 1);
    const globex = await server.devSignIn('admin@globex.example');
    const res = await call<ApiErrorBody>(
      'GET',
      `${API}/device-deployment/${ddId}/logs`,
      undefined,
      globex.token,
    );
    expect(res.status).toBe(404);
    await agent.close();
  });

  it('counts nothing twice when a stored row is older than the cut (migrated logs)', async () => {
    const { agent, commandId, ddId } = await runningJob('pc-migrated', 1);
    expect(await progress(agent, commandId, { seq: 1, stdout: 'start\n' })).toBeNull();
    // a log written before the limit existed: longer than the limit, nothing counted as cut
    const old = 'o'.repeat(STEP_LOG_MAX_CHARS + 1000);
    await server.database.db.execute(
      sql`update deployment_step_logs set stdout_log = ${old} where device_deployment_id = ${ddId}`,
    );
    expect(await progress(agent, commandId, { seq: 2, stdout: 'end\n' })).toBeNull();
    await eventually(async () => ((await logRows(ddId))[0]?.stdoutCutBytes ?? 0) > 0);
    const [row] = await logRows(ddId);
    expect(row!.stdoutLog.length).toBe(STEP_LOG_MAX_CHARS);
    expect(row!.stdoutLog.endsWith('end\n')).toBe(true);
    expect(row!.stdoutCutBytes).toBe(1000 + 4);
    await agent.close();
  });
});
