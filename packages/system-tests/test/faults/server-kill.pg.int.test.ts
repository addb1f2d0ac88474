import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import { createThrowawayDatabase, PG_BASE } from '@outpost/server/test-support';
import { freePort, startServerProcess, stopWithTest } from '@outpost/server/test-support/faults';
import type { ServerProcess } from '@outpost/server/test-support/faults';
import type { Agent } from '@outpost/agent/agent';
import { startFleet } from '@outpost/agent/sim/fleet';
import type { Fleet } from '@outpost/agent/sim/fleet';
import {
  call,
  enrolDevice,
  enrolmentToken,
  query,
  realAgent,
  signIn,
  sleep,
  until,
} from '../support/agent-faults';

// Faults: the server is killed with SIGKILL (no shutdown, nothing flushed) while a
// deployment runs on two real agents (the step library running real `sleep` and `echo` processes,
// on-disk outboxes) and four simulated ones; it is started again on the same PostgreSQL database.
// The agents carry on meanwhile and keep what they could not deliver in their outboxes; after the
// restart the deployment finishes with every step recorded exactly once, every output line once,
// one run command per device, and the job's counters equal to its device rows.

const STEPS = [
  { step_name: 'Wait', step_type: 'CMD', step_details: { command: 'sleep 1' } },
  { step_name: 'Say', step_type: 'CMD', step_details: { command: 'echo fault-marker' } },
  { step_name: 'Wait more', step_type: 'CMD', step_details: { command: 'sleep 1' } },
  { step_name: 'Wait again', step_type: 'CMD', step_details: { command: 'sleep 1' } },
];

describe('SIGKILL of the server while a deployment runs', () => {
  let db: Awaited<ReturnType<typeof createThrowawayDatabase>>;
  let server: ServerProcess | null = null;
  let fleet: Fleet | null = null;
  const agents: Agent[] = [];
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-faults-kill-'));
  let port = 0;
  const env = () => ({
    DATABASE_URL: db.url,
    DATA_DIR: path.join(dir, 'data'),
    OUTPOST_DEMO: '1',
    OUTPOST_DEMO_DEVICES: '0',
    DEPLOYMENT_SCHEDULER_INTERVAL_MS: '200',
  });

  beforeAll(async () => {
    db = await createThrowawayDatabase(PG_BASE);
    port = await freePort();
    server = await startServerProcess(port, env());
  }, 60_000);
  afterAll(async () => {
    await Promise.all(agents.map((a) => a.stop()));
    await fleet?.stop();
    await stopWithTest(server);
    await db?.drop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('finishes the deployment after a restart with every step result recorded exactly once', async () => {
    const url = server!.url;
    const admin = await signIn(url, 'admin@acme.example');
    const token = await enrolmentToken(url, admin.token);
    for (const i of [1, 2]) {
      const creds = await enrolDevice(url, token, `real-${i}`);
      const agent = realAgent(url, creds, {
        outbox: path.join(dir, `outbox-${i}`),
        work: path.join(dir, `work-${i}`),
      });
      agents.push(agent);
      agent.start();
    }
    fleet = await startFleet({
      server: url,
      tokens: [token],
      devices: 4,
      seed: 14,
      failureRate: 0,
      loginChance: 0,
      disconnectChance: 0,
      backoff: { baseMs: 200, capMs: 2000 },
    });
    const deviceRows = await until(async () => {
      const rows = await query<{ id: number; status: string; os_type: string }>(
        db.url,
        'select id, status, os_type from devices',
      );
      return rows.length === 6 && rows.every((r) => r.status === 'online') ? rows : null;
    }, 20_000);

    // a package reaches only devices of its OS: one for the real (Linux) agents, one for the
    // simulated Windows devices (the simulated Macs sit this one out)
    const jobIds: number[] = [];
    for (const target of ['linux', 'windows'] as const) {
      const pkg = (
        await call<PackageDetail>(url, 'POST', '/api/customer/deployment-packages', {
          token: admin.token,
          body: { name: `Survives a crash (${target})`, target_os: target },
        })
      ).body.data;
      for (const step of STEPS) {
        const res = await call(url, 'POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
          token: admin.token,
          body: step,
        });
        expect(res.status).toBe(200);
      }
      const job = await call<DeploymentJob>(url, 'POST', '/api/customer/deployments', {
        token: admin.token,
        body: {
          package_id: pkg.id,
          device_ids: deviceRows.filter((r) => r.os_type === target).map((r) => r.id),
          job_name: `Crash test (${target})`,
        },
      });
      expect(job.status).toBe(200);
      jobIds.push(job.body.data.id);
    }
    const deviceCount = deviceRows.filter((r) => r.os_type !== 'macos').length;

    // Kill the server once some device finished its first step and none has finished everything.
    await until(
      () =>
        query(db.url, "select 1 from deployment_step_logs where status = 'completed' limit 1").then(
          (r) => r.length > 0,
        ),
      20_000,
    );
    await server!.kill();
    const killedAt = Date.now();
    const before = await query<{ n: number }>(
      db.url,
      "select count(*)::int as n from device_deployments where job_id = any($1) and status = 'completed'",
      [jobIds],
    );
    await sleep(1500);
    server = await startServerProcess(port, env());
    const restartedAt = Date.now();

    const finals = await until(async () => {
      const jobs = await query<{
        status: string;
        total_devices: number;
        completed_devices: number;
        failed_devices: number;
      }>(
        db.url,
        'select status, total_devices, completed_devices, failed_devices from deployment_jobs where id = any($1)',
        [jobIds],
      );
      return jobs.length === 2 && jobs.every((j) => ['completed', 'failed'].includes(j.status)) ? jobs : null;
    }, 40_000);
    const finishedAt = Date.now();

    const rows = await query<{
      id: number;
      status: string;
      error_message: string | null;
      command_id: string;
    }>(
      db.url,
      'select id, status, error_message, command_id from device_deployments where job_id = any($1)',
      [jobIds],
    );
    expect(rows).toHaveLength(deviceCount);
    expect(rows.map((r) => [r.status, r.error_message])).toEqual(rows.map(() => ['completed', null]));
    for (const final of finals) {
      expect(final).toMatchObject({ status: 'completed', failed_devices: 0 });
      expect(final.completed_devices).toBe(final.total_devices);
    }
    expect(finals.reduce((n, j) => n + j.total_devices, 0)).toBe(rows.length);

    // Every step once per device, first attempt, completed; the echo's line once.
    const logs = await query<{
      device_deployment_id: number;
      step_order: number;
      attempt: number;
      status: string;
      stdout_log: string;
    }>(
      db.url,
      `select device_deployment_id, step_order, attempt, status, stdout_log from deployment_step_logs
        where device_deployment_id = any($1) order by device_deployment_id, step_order, attempt`,
      [rows.map((r) => r.id)],
    );
    for (const row of rows) {
      const mine = logs.filter((l) => l.device_deployment_id === row.id);
      expect(mine.map((l) => [l.step_order, l.attempt, l.status])).toEqual([
        [1, 1, 'completed'],
        [2, 1, 'completed'],
        [3, 1, 'completed'],
        [4, 1, 'completed'],
      ]);
      const say = mine.find((l) => l.step_order === 2)!;
      expect(say.stdout_log.split('fault-marker')).toHaveLength(2);
    }
    // One run command per device row, each ended once.
    const commands = await query<{ id: string; status: string }>(
      db.url,
      "select id, status from device_commands where kind = 'run_deployment'",
    );
    expect(commands.map((c) => c.id).sort()).toEqual(rows.map((r) => r.command_id).sort());
    expect(commands.every((c) => c.status === 'completed')).toBe(true);

    console.log(
      `[faults] server SIGKILL: ${before[0]!.n}/${deviceCount} devices had finished when killed; restarted ${restartedAt - killedAt} ms after the kill; job final ${finishedAt - restartedAt} ms after the restart`,
    );
  }, 90_000);
});
