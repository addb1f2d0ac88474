import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import { agentFileName, platformOf, releaseMessages } from '@outpost/contract/agent-releases';
import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { ApiErrorBody, ListData } from '@outpost/contract/envelope';
import { rolloutMessages } from '@outpost/contract/rollout-messages';
import type { User } from '@outpost/contract/users';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs, deviceCommands, devices, sites } from '../../db/schema/index';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';

// Agent self-updates in waves (docs/product/rollouts.md#agent-updates-in-waves): Update Selected
// with a rollout plan becomes an agent_update job; each wave's agents get their update_agent
// commands when the wave starts, and the updates' answers drive the gates and the halt.

type Envelope<T> = { success: true; data: T };
const UPDATE = '/api/customer/agents/update';
const DEPLOYMENTS = '/api/customer/deployments';

function publishRelease(dir: string, platform: string, version: string) {
  const body = '#!/bin/sh\necho stand-in\n';
  const file = path.join(dir, agentFileName(platform as never));
  fs.writeFileSync(file, body, { mode: 0o755 });
  const sha256 = crypto.createHash('sha256').update(body).digest('hex');
  fs.writeFileSync(
    `${file}.json`,
    JSON.stringify({ platform, version, sha256, size: Buffer.byteLength(body), node: 'v24.11.1' }),
  );
}

describe('agent updates in waves', () => {
  let server: TestServer;
  let admin: string;
  let dir: string;
  const here = platformOf(process.platform, process.arch) ?? 'linux-x64';
  const hereOs = here.startsWith('darwin') ? 'macos' : 'linux';
  const fleet: { id: number; agent: AgentSocket; siteId: number | null }[] = [];
  let seq = 0;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-update-waves-'));
    publishRelease(dir, here, '1.0.1');
    server = await startTestServer({
      env: { AGENT_RELEASES_DIR: dir, DEPLOYMENT_SCHEDULER_INTERVAL_MS: '50', AGENT_PRESENCE_GRACE_MS: '0' },
    });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
  }, 120_000);
  afterAll(async () => {
    for (const d of fleet) {
      await d.agent.close();
    }
    await server?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const call = <T>(method: string, p: string, body?: unknown, token = admin) =>
    server.request<T>(method, p, { token, body });

  /** `n` outdated agents (1.0.0) connected now, in the given site (the token's default otherwise). */
  async function outdatedAgents(n: number, siteId?: number) {
    const token = (
      await createEnrollmentToken(server, admin, siteId === undefined ? {} : { site_id: siteId })
    ).token;
    const joined = await Promise.all(
      Array.from({ length: n }, async () => {
        const hostname = `upw-${++seq}`;
        const f = { hostname, osType: hereOs, agentVersion: '1.0.0', machineId: `mid-${hostname}` };
        const creds = (await enroll(server, token, facts(f))).body.data;
        const agent = await onlineAgent(server.url, creds, {
          hostname,
          osType: hereOs,
          agentVersion: '1.0.0',
        });
        const [row] = await server.database.db
          .select()
          .from(devices)
          .where(eq(devices.deviceGuid, creds.device_guid));
        return { id: row!.id, agent, siteId: row!.siteId };
      }),
    );
    fleet.push(...joined);
    return joined;
  }

  const twoWaves = {
    mode: 'percent',
    waves: [{ percent: 50 }, { percent: 100 }],
    gate: { min_finished_percent: 100, min_success_percent: 100, soak_minutes: 0 },
  };

  /** The update_agent commands of these devices, in device_commands. */
  async function updateCommandsOf(ids: readonly number[]) {
    const rows = await server.database.db
      .select({ id: deviceCommands.id, deviceId: deviceCommands.deviceId, status: deviceCommands.status })
      .from(deviceCommands)
      .where(eq(deviceCommands.kind, 'update_agent'));
    return rows.filter((r) => ids.includes(r.deviceId));
  }

  const detail = async (id: number) =>
    (await call<Envelope<DeploymentJobDetail>>('GET', `${DEPLOYMENTS}/${id}`)).body.data;

  let messageId = 0;
  /** The agents of these commands answer their updates. */
  async function answer(commands: { id: string; deviceId: number }[], status: 'completed' | 'failed') {
    for (const c of commands) {
      const agent = fleet.find((d) => d.id === c.deviceId)!.agent;
      const id = `uw-${++messageId}`;
      agent.send({
        type: 'command_result',
        messageId: id,
        commandId: c.id,
        status,
        result: status === 'completed' ? { version: '1.0.1' } : null,
        error: status === 'completed' ? null : 'The new version did not start; rolled back to 1.0.0',
      });
      await agent.waitFor('ack', (a) => a.messageId === id);
    }
  }

  it('with the rollout off answers as before: one command per agent, no job', async () => {
    const [a] = await outdatedAgents(1);
    const res = await call<Envelope<UpdateAgentsResponse>>('POST', UPDATE, { device_ids: [a!.id] });
    expect(res.status).toBe(200);
    expect(res.body.data.queued).toBe(1);
    expect(res.body.data.job_id).toBeUndefined();
    expect(res.body.data.updates).toHaveLength(1);
    expect(await updateCommandsOf([a!.id])).toHaveLength(1);
  });

  it('dispatches wave 1 only; a successful wave passes and wave 2 gets its commands; the job completes', async () => {
    const agents = await outdatedAgents(4);
    const ids = agents.map((a) => a.id);
    const res = await call<Envelope<UpdateAgentsResponse>>('POST', UPDATE, {
      device_ids: ids,
      rollout: twoWaves,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.queued).toBe(4);
    expect(res.body.data.updates).toEqual([]);
    expect(res.body.data.planned?.map((p) => p.to)).toEqual(['1.0.1', '1.0.1', '1.0.1', '1.0.1']);
    const jobId = res.body.data.job_id!;

    const wave1 = await eventually(async () => {
      const cmds = await updateCommandsOf(ids);
      return cmds.length === 2 ? cmds : null;
    });
    const job = await detail(jobId);
    expect(job.name).toBe('Agent update to 1.0.1');
    expect(job.kind).toBe('agent_update');
    expect(job.agent_versions).toEqual(['1.0.1']);
    const held = job.deployments.filter((d) => d.hold === 'wave');
    expect(held).toHaveLength(2);
    expect(held.every((d) => !wave1.some((c) => c.deviceId === d.agent_id))).toBe(true);
    expect(job.deployments[0]?.current_step_name).toBe('Update agent to 1.0.1');

    // the agent receives update_agent for its row
    const first = agents.find((a) => a.id === wave1[0]!.deviceId)!;
    const offered = await first.agent.waitFor('command', (m) => m.commandId === wave1[0]!.id);
    expect(offered.command).toMatchObject({ kind: 'update_agent', version: '1.0.1' });

    await answer(wave1, 'completed');
    const all = await eventually(async () => {
      const cmds = await updateCommandsOf(ids);
      return cmds.length === 4 ? cmds : null;
    });
    const wave2 = all.filter((c) => !wave1.some((w) => w.id === c.id));
    await answer(wave2, 'completed');
    const done = await eventually(async () => {
      // the job settles as its last rows end; the rollout's last gate is looked at right after
      const j = await detail(jobId);
      return j.status === 'completed' && j.rollout?.state === 'completed' ? j : null;
    });
    expect(done.completed_devices).toBe(4);
    expect(done.rollout?.state).toBe('completed');

    const list = await call<Envelope<ListData<DeploymentJob>>>('GET', `${DEPLOYMENTS}?search=Agent%20update`);
    expect(list.body.data.data.map((j) => j.id)).toContain(jobId);
    const audit = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.action, 'Update Agent'), eq(auditLogs.resourceId, String(ids[0]))));
    expect(audit.some((a) => (JSON.parse(a.newValues ?? '{}') as { job_id?: number }).job_id === jobId)).toBe(
      true,
    );
  });

  it('a failed update in wave 1 halts the rollout, and wave 2 never gets a command', async () => {
    const agents = await outdatedAgents(4);
    const ids = agents.map((a) => a.id);
    const res = await call<Envelope<UpdateAgentsResponse>>('POST', UPDATE, {
      device_ids: ids,
      rollout: twoWaves,
    });
    const jobId = res.body.data.job_id!;
    const wave1 = await eventually(async () => {
      const cmds = await updateCommandsOf(ids);
      return cmds.length === 2 ? cmds : null;
    });
    await answer(wave1.slice(0, 1), 'failed');
    await answer(wave1.slice(1), 'completed');
    const halted = await eventually(async () => {
      const j = await detail(jobId);
      return j.rollout_state === 'halted' ? j : null;
    });
    const failed = halted.deployments.find((d) => d.agent_id === wave1[0]!.deviceId);
    expect(failed?.status).toBe('failed');
    expect(failed?.error_message).toBe('The new version did not start; rolled back to 1.0.0');
    // a few scheduler passes later, still only wave 1's commands exist
    await new Promise((r) => setTimeout(r, 300));
    expect(await updateCommandsOf(ids)).toHaveLength(2);

    // abort ends the held rows; no command is ever queued for them
    const abort = await call('POST', `${DEPLOYMENTS}/${jobId}/rollout/abort`);
    expect(abort.status).toBe(200);
    const ended = await detail(jobId);
    expect(ended.deployments.filter((d) => d.status === 'cancelled')).toHaveLength(2);
    expect(await updateCommandsOf(ids)).toHaveLength(2);
  });

  it('skips agents whose update is already waiting in a wave', async () => {
    const agents = await outdatedAgents(2);
    const ids = agents.map((a) => a.id);
    const first = await call<Envelope<UpdateAgentsResponse>>('POST', UPDATE, {
      device_ids: ids,
      rollout: twoWaves,
    });
    expect(first.body.data.queued).toBe(2);
    const again = await call<Envelope<UpdateAgentsResponse>>('POST', UPDATE, { device_ids: ids });
    expect(again.body.data.queued).toBe(0);
    expect(again.body.data.skipped.map((s) => s.reason)).toEqual([
      releaseMessages.skippedPending,
      releaseMessages.skippedPending,
    ]);
    await call('POST', `${DEPLOYMENTS}/${first.body.data.job_id!}/cancel`);
  });

  it('refuses a bad plan with the rollout messages', async () => {
    const [a, b] = await outdatedAgents(2);
    const bad = await call<ApiErrorBody>('POST', UPDATE, {
      device_ids: [a!.id, b!.id],
      rollout: { mode: 'percent', waves: [{ percent: 50 }, { percent: 20 }, { percent: 100 }] },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe(rolloutMessages.percentsMustRise);
    const short = await call<ApiErrorBody>('POST', UPDATE, {
      device_ids: [a!.id, b!.id],
      rollout: { mode: 'percent', waves: [{ percent: 50 }, { percent: 90 }] },
    });
    expect(short.status).toBe(400);
    expect(short.body.error).toBe(rolloutMessages.lastPercent);
    expect(await updateCommandsOf([a!.id, b!.id])).toHaveLength(0);
  });

  it('a site-limited administrator cannot include another site’s agents (404), and updates their own', async () => {
    const tenantId = (await server.devSignIn('admin@acme.example')).user.tenant_id;
    const [hq, lon] = await server.database.db
      .select()
      .from(sites)
      .where(eq(sites.tenantId, tenantId))
      .orderBy(sites.id);
    const [mine] = await outdatedAgents(1, lon!.id);
    const [theirs] = await outdatedAgents(1, hq!.id);
    const created = await call<Envelope<User>>('POST', '/api/customer/users', {
      email: 'london-admin@acme.example',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [lon!.id],
    });
    expect(created.status).toBe(200);
    const london = (await server.devSignIn('london-admin@acme.example')).token;
    const mixed = await call<ApiErrorBody>(
      'POST',
      UPDATE,
      { device_ids: [mine!.id, theirs!.id], rollout: twoWaves },
      london,
    );
    expect(mixed.status).toBe(404);
    expect(await updateCommandsOf([mine!.id, theirs!.id])).toHaveLength(0);
    const own = await call<Envelope<UpdateAgentsResponse>>(
      'POST',
      UPDATE,
      { device_ids: [mine!.id], rollout: twoWaves },
      london,
    );
    expect(own.status).toBe(200);
    expect(own.body.data.job_id).toBeDefined();
  });
});
