import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { rowsOf } from '@outpost/server/lib/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptRunDetail, ScriptRunsPage } from '@outpost/contract/script-runs';
import { outputLines } from '@outpost/contract/script-runs';
import {
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  startTestServer,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent } from '@outpost/agent/agent';
import { createFileOutbox } from '@outpost/agent/outbox';
import { createSystemBackend } from '@outpost/agent/system-backend';
import { createAgentStepsRunner } from '@outpost/agent/deployment/steps-runner';
import { createScriptExecutor } from '@outpost/agent/scripts/run-script';
import { portal } from '../support/portal';

// Script runs with the real agent on this machine (docs/product/scripts.md#runs): a bash script's
// parameters arrive as OUTPOST_ variables and its output streams in order; a secret appears in no
// log, table or answer; cancel and timeout kill the script's whole process tree; offline devices
// wait or are skipped; another tenant's run is not found.

type Envelope<T> = { success: boolean; data: T; error?: string };

const SECRET = `sekrit-${process.pid}-Zq81x`;
const isGone = (pid: number) => {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
};

describe('script runs (real agent, real server)', () => {
  let server: TestServer;
  let token: string;
  let agent: Agent | null = null;
  let deviceId = 0;
  let offlineId = 0;
  const log: string[] = [];
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-script-runs-'));

  const run = async (body: Record<string, unknown>) => {
    const res = await server.request<Envelope<{ job_id: number; devices: number; skipped: number }>>(
      'POST',
      '/api/customer/script-runs/dev',
      { token, body: { name: 'Test script', language: 'bash', device_ids: [deviceId], ...body } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const detail = async (id: number, as = token) =>
    server.request<Envelope<ScriptRunDetail>>('GET', `/api/customer/script-runs/${id}`, { token: as });
  const ended = (id: number, timeoutMs = 20_000) =>
    eventually(async () => {
      const d = (await detail(id)).body.data;
      return ['completed', 'failed', 'cancelled'].includes(d.status) ? d : null;
    }, timeoutMs);

  beforeAll(async () => {
    server = await startTestServer({
      env: { DEPLOYMENT_SCHEDULER_INTERVAL_MS: '100', LOG_LEVEL: 'trace' },
      logStream: { write: (line) => void log.push(line) },
    });
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
    const enrolToken = (await createEnrollmentToken(server, token)).token;
    const creds = (await enroll(server, enrolToken, facts({ hostname: 'script-host', osType: 'linux' }))).body
      .data;
    const away = (await enroll(server, enrolToken, facts({ hostname: 'script-away', osType: 'linux' }))).body
      .data;
    const config = {
      server: server.url,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      stateDir,
    };
    const executor = new RecordingExecutor();
    agent = createAgent({
      ...config,
      outbox: createFileOutbox(`${stateDir}-outbox`),
      backend: createSystemBackend({ externalIpUrl: null }),
      executor,
      deployments: createAgentStepsRunner(config, executor),
      scripts: createScriptExecutor({ workDir: path.join(stateDir, 'work'), flushIntervalMs: 50 }),
    });
    agent.start();
    const api = portal(server, token, 'linux');
    deviceId = (
      await eventually(async () => {
        const row = await api.device(creds.device_guid);
        return row?.status === 'online' ? row : null;
      })
    ).id;
    offlineId = (await eventually(() => api.device(away.device_guid))).id;
  });

  afterAll(async () => {
    await agent?.stop();
    await server.close();
    fs.rmSync(stateDir, { recursive: true, force: true });
  });

  it('runs a bash script with its parameters as variables and keeps its output in order, stderr marked', async () => {
    const { job_id } = await run({
      body: 'echo "hello $OUTPOST_WHO"\necho "warning: careful" >&2\nsleep 0.3\necho "raw: $OUTPOST_RAW"\nexit 0\n',
      params: { who: 'world', raw: '$(touch /tmp/outpost-never)' },
    });
    const d = await ended(job_id);
    expect(d.status).toBe('completed');
    const row = d.rows[0]!;
    // the real agent reports this machine's hostname
    expect(row).toMatchObject({ status: 'completed', exit_code: 0, hostname: os.hostname() });
    expect(row.duration_ms).toBeGreaterThan(0);
    expect(outputLines(row.output)).toEqual([
      { stream: 'stdout', text: 'hello world' },
      { stream: 'stderr', text: 'warning: careful' },
      { stream: 'stdout', text: 'raw: $(touch /tmp/outpost-never)' },
    ]);
    expect(fs.existsSync('/tmp/outpost-never')).toBe(false);
    const history = await server.request<Envelope<ScriptRunsPage>>('GET', '/api/customer/script-runs', {
      token,
    });
    expect(history.body.data.data.find((r) => r.id === job_id)).toMatchObject({
      script_name: 'Test script',
      version: 1,
      status: 'completed',
      devices: { total: 1, succeeded: 1, failed: 0, running: 0 },
    });
  });

  it('reports a failing exit code', async () => {
    const { job_id } = await run({ body: 'echo about to fail\nexit 3\n' });
    const d = await ended(job_id);
    expect(d.rows[0]).toMatchObject({ status: 'failed', exit_code: 3 });
  });

  it('never shows or stores a secret: output, answers, every table and the whole server log', async () => {
    const { job_id } = await run({
      body: 'echo "the token is $OUTPOST_TOKEN"\nprintf "%s" "$OUTPOST_TOKEN" | cut -c1-5\necho "$OUTPOST_TOKEN" >&2\n',
      secrets: { token: SECRET },
    });
    const d = await ended(job_id);
    expect(d.status).toBe('completed');
    expect(outputLines(d.rows[0]!.output)[0]).toEqual({ stream: 'stdout', text: 'the token is ••••' });
    const answers = [
      JSON.stringify(d),
      JSON.stringify((await server.request('GET', '/api/customer/script-runs', { token })).body),
      JSON.stringify((await server.request('GET', '/api/customer/audit?limit=100', { token })).body),
    ];
    // the run is a job: the Deployments pages open it too
    const asJob = await server.request('GET', `/api/customer/deployments/${job_id}`, { token });
    expect(asJob.status, JSON.stringify(asJob.body)).toBe(200);
    answers.push(JSON.stringify(asJob.body));
    for (const a of answers) {
      expect(a).not.toContain(SECRET);
    }
    // the run's audit entry names the secret parameter, masked
    const [audited] = rowsOf<{ new_values: string }>(
      await server.database.db.execute(
        sql`select new_values from audit_logs where action = 'script.run' and new_values like ${`%"job_id":${job_id},%`}`,
      ),
    );
    expect(JSON.parse(audited!.new_values)).toMatchObject({ job_id, params: { token: '••••' } });
    const tables = rowsOf<{ table_name: string }>(
      await server.database.db.execute(
        sql`select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
      ),
    );
    expect(tables.length).toBeGreaterThan(20);
    for (const { table_name } of tables) {
      const dump = rowsOf<{ dump: string }>(
        await server.database.db.execute(
          sql.raw(`select coalesce(string_agg(t::text, E'\\n'), '') as dump from "${table_name}" t`),
        ),
      );
      expect(dump[0]?.dump ?? '', table_name).not.toContain(SECRET);
    }
    expect(log.length).toBeGreaterThan(0);
    expect(log.join('')).not.toContain(SECRET);
  });

  it('cancel kills the script and the child it started', async () => {
    const { job_id } = await run({ body: 'sleep 300 &\necho "child $!"\necho "shell $$"\nwait\n' });
    const pids = await eventually(async () => {
      const out = (await detail(job_id)).body.data.rows[0]?.output ?? '';
      const child = /child (\d+)/.exec(out);
      const shell = /shell (\d+)/.exec(out);
      return child && shell ? [Number(child[1]), Number(shell[1])] : null;
    });
    for (const pid of pids) {
      expect(isGone(pid)).toBe(false);
    }
    const cancel = await server.request('POST', `/api/customer/script-runs/${job_id}/cancel`, { token });
    expect(cancel.status).toBe(200);
    await eventually(() => Promise.resolve(pids.every(isGone)));
    const d = await ended(job_id);
    expect(d.status).toBe('cancelled');
    const audit = await server.request<Envelope<{ logs?: { action: string }[] } | { action: string }[]>>(
      'GET',
      '/api/customer/audit?limit=20',
      { token },
    );
    expect(JSON.stringify(audit.body)).toContain('Cancel Deployment');
  });

  it('a run past its timeout is stopped with its process tree', async () => {
    const { job_id } = await run({ body: 'sleep 120 &\necho "child $!"\nwait\n', timeout_seconds: 1 });
    const d = await ended(job_id);
    expect(d.rows[0]).toMatchObject({ status: 'failed' });
    expect(d.rows[0]!.error_message).toMatch(/timeout of 1 s/);
    const child = Number(/child (\d+)/.exec(d.rows[0]!.output)?.[1]);
    await eventually(() => Promise.resolve(isGone(child)));
  });

  it('skips offline devices when asked, else they wait', async () => {
    const skip = await run({ body: 'echo hi\n', device_ids: [deviceId, offlineId], offline: 'skip' });
    expect(skip).toMatchObject({ devices: 1, skipped: 1 });
    expect((await ended(skip.job_id)).rows.map((r) => r.hostname)).toEqual([os.hostname()]);
    const wait = await run({ body: 'echo hi\n', device_ids: [deviceId, offlineId], offline: 'wait' });
    expect(wait).toMatchObject({ devices: 2, skipped: 0 });
    const d = await eventually(async () => {
      const x = (await detail(wait.job_id)).body.data;
      return x.devices.succeeded === 1 ? x : null;
    });
    expect(d.rows.find((r) => r.hostname === 'script-away')?.status).toBe('pending');
    expect(d.status).toBe('running');
  });

  it('another tenant neither sees a run nor runs on this tenant’s devices', async () => {
    const { job_id } = await run({ body: 'echo mine\n' });
    const other = (await server.devSignIn('admin@globex.example')).token;
    expect((await detail(job_id, other)).status).toBe(404);
    expect(
      (await server.request('POST', `/api/customer/script-runs/${job_id}/cancel`, { token: other })).status,
    ).toBe(404);
    const list = await server.request<Envelope<ScriptRunsPage>>('GET', '/api/customer/script-runs', {
      token: other,
    });
    expect(list.body.data.data.some((r) => r.id === job_id)).toBe(false);
    const theirs = await server.request('POST', '/api/customer/script-runs/dev', {
      token: other,
      body: { name: 'x', language: 'bash', body: 'echo x', device_ids: [deviceId] },
    });
    expect(theirs.status).toBe(404);
  });
});
