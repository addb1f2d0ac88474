import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, isNotNull } from 'drizzle-orm';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { ApiErrorBody } from '@outpost/contract/envelope';
import type { PackageDetail } from '@outpost/contract/packages';
import { rolloutMessages } from '@outpost/contract/rollout-messages';
import type { RolloutActionResponse } from '@outpost/contract/rollouts';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { deviceCommands, deviceDeployments, devices } from '../../db/schema/index';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// Safe rollouts over real agent sockets (docs/product/rollouts.md#waves, #gates, #rollout-actions):
// waves dispatched one after another as their gates pass, the automatic halt that never
// dispatches a later wave, and the actions with their 409s.

type Envelope<T> = { success: true; data: T };
const API = '/api/customer/deployments';

describe('rollouts: waves, gates and actions', () => {
  let server: TestServer;
  let admin: string;
  let enrollToken: string;
  const fleet: { id: number; agent: AgentSocket; creds: EnrollResult }[] = [];
  let pkgId: number;
  let seq = 0;

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        DEPLOYMENT_SCHEDULER_INTERVAL_MS: '50',
        AGENT_PRESENCE_GRACE_MS: '0',
        NOTIFY_OUTBOX_INTERVAL_MS: '100',
      },
    });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    enrollToken = (await createEnrollmentToken(server, admin)).token;
    // the ten agents enrol and connect at once
    const joined = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const hostname = `wave-${i}`;
        const creds = (await enroll(server, enrollToken, facts({ hostname, machineId: `mid-${hostname}` })))
          .body.data;
        const agent = await onlineAgent(server.url, creds, { hostname });
        const [row] = await server.database.db
          .select()
          .from(devices)
          .where(eq(devices.deviceGuid, creds.device_guid));
        return { id: row!.id, agent, creds };
      }),
    );
    fleet.push(...joined);
    const pkg = await call<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
      name: 'Waves',
    });
    pkgId = pkg.body.data.id;
    await call('POST', `/api/customer/deployment-packages/${pkgId}/steps`, {
      step_name: 'echo',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'echo waves' }),
    });
  }, 180_000);
  afterAll(async () => {
    for (const d of fleet) {
      await d.agent.close();
    }
    await server?.close();
  });

  function call<T>(method: string, path: string, body?: unknown, token = admin) {
    return server.request<T>(method, path, { token, body });
  }

  async function create(rollout: unknown, ids = fleet.map((d) => d.id)) {
    const res = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkgId,
      device_ids: ids,
      job_name: `Rollout ${++seq}`,
      rollout,
    });
    expect(res.status).toBe(200);
    return res.body.data.id;
  }

  const detail = async (id: number) =>
    (await call<Envelope<DeploymentJobDetail>>('GET', `${API}/${id}`)).body.data;

  /** The job's device rows that hold a command now (dispatched, not ended). */
  async function dispatchedRows(jobId: number) {
    return server.database.db
      .select()
      .from(deviceDeployments)
      .where(
        and(
          eq(deviceDeployments.jobId, jobId),
          isNotNull(deviceDeployments.commandId),
          eq(deviceDeployments.status, 'pending'),
        ),
      );
  }

  let messageId = 0;
  /** Answers the run commands of these rows as their agents would. */
  async function answer(
    rows: { deviceId: number | null; commandId: string | null }[],
    status: 'completed' | 'failed',
  ) {
    for (const r of rows) {
      const agent = fleet.find((d) => d.id === r.deviceId)!.agent;
      const id = `rr-${++messageId}`;
      agent.send({
        type: 'command_result',
        messageId: id,
        commandId: r.commandId!,
        status,
        result: { deploymentStatus: status, rebootRequired: false },
        error: status === 'completed' ? null : 'Step 1 failed',
      });
      await agent.waitFor('ack', (a) => a.messageId === id);
    }
  }

  async function runCommandsOfJob(jobId: number) {
    const rows = await server.database.db
      .select({ payload: deviceCommands.payload })
      .from(deviceCommands)
      .where(eq(deviceCommands.kind, 'run_deployment'));
    return rows.filter((r) => r.payload.kind === 'run_deployment' && r.payload.jobId === jobId);
  }

  it('refuses a plan whose percents do not rise or do not end at 100, in words', async () => {
    const bad = await call<ApiErrorBody>('POST', API, {
      package_id: pkgId,
      device_ids: fleet.map((d) => d.id),
      job_name: 'Bad plan',
      rollout: { mode: 'percent', waves: [{ percent: 50 }, { percent: 20 }, { percent: 100 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(rolloutMessages.percentsMustRise);
    const short = await call<ApiErrorBody>('POST', API, {
      package_id: pkgId,
      device_ids: fleet.map((d) => d.id),
      job_name: 'Bad plan',
      rollout: { mode: 'percent', waves: [{ percent: 50 }, { percent: 90 }] },
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe(rolloutMessages.lastPercent);
  });

  it('runs three waves one after another as their gates pass, then completes', async () => {
    const id = await create({
      mode: 'percent',
      waves: [{ percent: 20 }, { percent: 50 }, { percent: 100 }],
      gate: { min_finished_percent: 100, min_success_percent: 50 },
    });
    const first = await detail(id);
    expect(first.rollout_state).toBe('running');
    expect(first.rollout?.waves.map((w) => w.total_devices)).toEqual([2, 3, 5]);
    expect(first.deployments.filter((d) => d.hold === 'wave')).toHaveLength(8);
    expect(first.deployments.find((d) => d.wave_index === 1)?.hold_note).toBe(
      rolloutMessages.waitingForWave(1),
    );
    for (const [wave, size] of [
      [0, 2],
      [1, 3],
      [2, 5],
    ] as const) {
      const rows = await eventually(async () => {
        const r = await dispatchedRows(id);
        return r.length === size ? r : null;
      });
      expect(rows.every((r) => r.waveIndex === wave && r.hold === null)).toBe(true);
      if (wave === 1) {
        // one failure of three stays within the 50 % allowed
        await answer(rows.slice(0, 1), 'failed');
        await answer(rows.slice(1), 'completed');
      } else {
        await answer(rows, 'completed');
      }
    }
    const done = await eventually(async () => {
      const d = await detail(id);
      return d.rollout?.state === 'completed' && d.status === 'failed' ? d : null;
    });
    expect(done.rollout?.waves.map((w) => w.state)).toEqual(['passed', 'passed', 'passed']);
    expect(done.rollout?.waves.every((w) => w.gate_met_at && w.passed_at && w.started_at)).toBe(true);
    expect(await runCommandsOfJob(id)).toHaveLength(10);
  });

  it('halts a wave whose failures pass the threshold, and never dispatches the next wave', async () => {
    // a webhook channel hears of the halt (docs/product/monitoring.md#what-channels-hear)
    const heard: string[] = [];
    const receiver = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        heard.push(Buffer.concat(chunks).toString('utf8'));
        res.writeHead(200).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    const channel = await call('POST', '/api/customer/notification-channels', {
      kind: 'webhook',
      name: 'Halts',
      config: { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/halts` },
    });
    expect(channel.status).toBe(200);
    const id = await create({
      mode: 'percent',
      waves: [{ percent: 50 }, { percent: 100 }],
      gate: { min_finished_percent: 100, min_success_percent: 80 },
    });
    const rows = await eventually(async () => {
      const r = await dispatchedRows(id);
      return r.length === 5 ? r : null;
    });
    await answer(rows.slice(0, 2), 'failed');
    const halted = await eventually(async () => {
      const d = await detail(id);
      return d.rollout?.state === 'halted' ? d : null;
    });
    expect(halted.rollout?.state_reason).toBe(
      'Wave 1 halted: 2 of 5 devices failed (40 %), above the 20 % allowed',
    );
    expect(halted.rollout?.waves[0]?.state).toBe('halted');
    expect(halted.status).toBe('running');
    const told = JSON.parse(await eventually(() => Promise.resolve(heard[0] ?? null))) as Record<
      string,
      unknown
    >;
    expect(told).toMatchObject({
      event: 'rollout_halted',
      severity: 'critical',
      subject: `Rollout halted: Rollout ${seq}`,
      data: { job_id: id, wave: 1, held_devices: 0 },
    });
    expect(told.text).toContain('Wave 1 halted: 2 of 5 devices failed (40 %), above the 20 % allowed');
    await new Promise((r) => receiver.close(r));
    expect(heard).toHaveLength(1);
    await answer(rows.slice(2), 'completed');
    // the sweep and the settles ran since: still nothing for the second wave
    await new Promise((r) => setTimeout(r, 600));
    const commands = await runCommandsOfJob(id);
    expect(commands).toHaveLength(5);
    const later = (await detail(id)).deployments.filter((d) => d.wave_index === 1);
    expect(later.every((d) => d.status === 'pending' && d.hold === 'wave')).toBe(true);
    const audit = await call<Envelope<{ action: string; details: string | null }[]>>(
      'GET',
      '/api/customer/audit?action=Halt%20Rollout',
    );
    expect(JSON.stringify(audit.body)).toContain('Halt Rollout');
    // the resume acknowledges the two failures: the other three succeeded, so the gate passes
    const resumed = await call<Envelope<RolloutActionResponse>>('POST', `${API}/${id}/rollout/resume`, {});
    expect(resumed.status).toBe(200);
    const next = await eventually(async () => {
      const r = await dispatchedRows(id);
      return r.some((row) => row.waveIndex === 1) ? r : null;
    });
    expect(next.filter((row) => row.waveIndex === 1)).toHaveLength(5);
    expect((await detail(id)).rollout?.waves[0]?.state).toBe('passed');
    await call('POST', `${API}/${id}/rollout/abort`);
  });

  it('withdraws a run command not yet offered when its wave halts, and holds the row', async () => {
    const res = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkgId,
      device_ids: fleet.map((d) => d.id),
      job_name: `Rollout ${++seq}`,
      scheduled_at: new Date(Date.now() + 2500).toISOString(),
      rollout: {
        mode: 'percent',
        waves: [{ percent: 50 }, { percent: 100 }],
        gate: { min_finished_percent: 100, min_success_percent: 80 },
      },
    });
    expect(res.status).toBe(200);
    const id = res.body.data.id;
    const waveRows = await server.database.db
      .select()
      .from(deviceDeployments)
      .where(and(eq(deviceDeployments.jobId, id), eq(deviceDeployments.waveIndex, 0)));
    // one device of the first wave goes offline before the job is due: its command waits unsent
    const away = fleet.find((d) => d.id === waveRows[0]!.deviceId)!;
    await away.agent.close();
    await eventually(async () => {
      const [row] = await server.database.db.select().from(devices).where(eq(devices.id, away.id));
      return row?.status === 'offline' ? true : null;
    });
    const rows = await eventually(async () => {
      const r = await dispatchedRows(id);
      return r.length === 5 ? r : null;
    });
    const awayRow = rows.find((r) => r.deviceId === away.id)!;
    await answer(rows.filter((r) => r.deviceId !== away.id).slice(0, 2), 'failed');
    await eventually(async () => ((await detail(id)).rollout?.state === 'halted' ? true : null));
    const [held] = await server.database.db
      .select()
      .from(deviceDeployments)
      .where(eq(deviceDeployments.id, awayRow.id));
    expect(held).toMatchObject({
      status: 'pending',
      hold: 'halted',
      holdNote: rolloutMessages.heldByHalt(0),
      commandId: null,
    });
    const [withdrawn] = await server.database.db
      .select()
      .from(deviceCommands)
      .where(eq(deviceCommands.id, awayRow.commandId!));
    expect(withdrawn).toMatchObject({ status: 'failed', error: rolloutMessages.withdrawn });
    away.agent = await onlineAgent(server.url, away.creds, { hostname: `wave-${fleet.indexOf(away)}` });
    await call('POST', `${API}/${id}/rollout/abort`);
  });

  it('pauses, resumes, skips a gate and aborts, with a 409 when the action does not fit', async () => {
    const plain = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkgId,
      device_ids: [fleet[0]!.id],
      job_name: 'No rollout',
    });
    const noRollout = await call<ApiErrorBody>('POST', `${API}/${plain.body.data.id}/rollout/pause`);
    expect(noRollout.status).toBe(409);
    expect(noRollout.body.error).toBe(rolloutMessages.noRollout);
    await call('POST', `${API}/${plain.body.data.id}/cancel`);

    const id = await create({
      mode: 'percent',
      waves: [{ percent: 30 }, { percent: 60 }, { percent: 100 }],
      gate: { min_finished_percent: 100, min_success_percent: 100 },
    });
    const act = (action: string, body?: unknown) =>
      call<Envelope<RolloutActionResponse> | ApiErrorBody>('POST', `${API}/${id}/rollout/${action}`, body);

    const resumeRunning = await act('resume', {});
    expect(resumeRunning.status).toBe(409);
    const noReason = await act('skip-gate', { reason: ' ' });
    expect(noReason.status).toBe(400);
    expect((noReason.body as ApiErrorBody).error).toContain('A reason is required to skip a gate');

    const paused = await act('pause');
    expect(paused.status).toBe(200);
    expect((paused.body as Envelope<RolloutActionResponse>).data.rollout.state).toBe('paused');
    expect((await act('pause')).status).toBe(409);

    const resumed = await act('resume', { use_current_package: true });
    expect(resumed.status).toBe(200);
    expect((resumed.body as Envelope<RolloutActionResponse>).data.rollout.state).toBe('running');

    const skipped = await act('skip-gate', { reason: 'Verified by hand' });
    expect(skipped.status).toBe(200);
    const rollout = (skipped.body as Envelope<RolloutActionResponse>).data.rollout;
    expect(rollout.current_wave).toBe(1);
    expect(rollout.waves[0]?.gate_skipped_reason).toBe('Verified by hand');
    expect(rollout.waves[0]?.state).toBe('passed');
    await eventually(async () => ((await dispatchedRows(id)).some((r) => r.waveIndex === 1) ? true : null));

    const aborted = await act('abort');
    expect(aborted.status).toBe(200);
    expect((aborted.body as Envelope<RolloutActionResponse>).data.rollout.state).toBe('aborted');
    const after = await detail(id);
    expect(after.status).toBe('cancelled');
    expect(after.deployments.every((d) => d.status === 'cancelled')).toBe(true);
    expect((await act('abort')).status).toBe(409);
    expect((await act('resume', {})).status).toBe(409);
    // the third wave was never dispatched
    const commands = await runCommandsOfJob(id);
    const third = after.deployments.filter((d) => d.wave_index === 2).map((d) => d.id);
    expect(
      commands.filter(
        (c) => c.payload.kind === 'run_deployment' && third.includes(c.payload.deviceDeploymentId),
      ),
    ).toHaveLength(0);
  });

  it('groups mode: waves named after groups, the rest in “Remaining devices”; no devices: the groups’ members', async () => {
    const group = async (name: string, ids: number[]) => {
      const g = await call<Envelope<{ id: number }>>('POST', '/api/customer/groups', {
        name: `${name} ${++seq}`,
        kind: 'static',
      });
      expect(g.status).toBe(200);
      await call('POST', `/api/customer/groups/${g.body.data.id}/members`, { device_ids: ids });
      return g.body.data.id;
    };
    const pilot = await group('Pilot', [fleet[0]!.id, fleet[1]!.id]);
    const office = await group('Office', [fleet[1]!.id, fleet[2]!.id]);
    const id = await create(
      { mode: 'groups', waves: [{ group_id: pilot }, { group_id: office }] },
      fleet.slice(0, 5).map((d) => d.id),
    );
    const d = await detail(id);
    expect(d.rollout?.waves.map((w) => [w.name.split(' ')[0], w.total_devices])).toEqual([
      ['Pilot', 2],
      ['Office', 1],
      ['Remaining', 2],
    ]);
    expect(d.rollout?.waves[2]?.name).toBe(rolloutMessages.remainingWave);
    await call('POST', `${API}/${id}/rollout/abort`);

    const union = await call<Envelope<DeploymentJob>>('POST', API, {
      package_id: pkgId,
      job_name: 'Groups only',
      rollout: { mode: 'groups', waves: [{ group_id: pilot }, { group_id: office }] },
    });
    expect(union.status).toBe(200);
    expect(union.body.data.total_devices).toBe(3);
    expect(union.body.data.rollout_state).toBe('running');
    await call('POST', `${API}/${union.body.data.id}/rollout/abort`);

    const unknown = await call<ApiErrorBody>('POST', API, {
      package_id: pkgId,
      job_name: 'Unknown group',
      rollout: { mode: 'groups', waves: [{ group_id: pilot }, { group_id: office + 100000 }] },
    });
    expect(unknown.status).toBe(404);
  });
});
