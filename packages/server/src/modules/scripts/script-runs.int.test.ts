import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScriptDetail, ScriptRunSpec } from '@outpost/contract/scripts';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { createSecretBox } from '../../lib/secret-box';
import type { ScriptRunner, ScriptRunTarget } from './script-runner';

// docs/product/scripts.md#running-a-script: the run route checks each value against its
// parameter, fills defaults, keeps secrets sealed, and hands the ScriptRunner the spec.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };
const API = '/api/customer/scripts';
const SAVED = 'saved-secret-value';

describe('starting a script run', () => {
  let server: TestServer;
  let admin: string;
  let script: ScriptDetail;
  const calls: { spec: ScriptRunSpec; target: ScriptRunTarget }[] = [];
  const runner: ScriptRunner = {
    create(_ctx, spec, target) {
      calls.push({ spec, target });
      return Promise.resolve({ job_id: 4000 + calls.length, devices: 3, skipped: 1 });
    },
  };
  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token: admin, body });
  const run = (body: Record<string, unknown>) =>
    call<{ job_id: number }>('POST', `${API}/${script.id}/runs`, body);

  beforeAll(async () => {
    server = await startTestServer({ scriptRunner: runner });
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    const res = await call<ScriptDetail>('POST', API, {
      name: 'Run checks int',
      language: 'powershell',
      os: 'windows',
      body: 'Write-Output $env:OUTPOST_SERVICE',
      timeout_seconds: 120,
      params: [
        { name: 'service', type: 'text', required: true, pattern: '[A-Za-z]+' },
        { name: 'count', type: 'number', default: '3', min: 1, max: 10 },
        { name: 'force', type: 'boolean', default: 'false' },
        { name: 'level', type: 'select', options: ['low', 'high'], default: 'low' },
        { name: 'password', type: 'secret', default: SAVED },
        { name: 'apikey', type: 'secret' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    script = res.body.data;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses bad values with 400 naming the parameter, and calls no runner', async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, 'service is required'],
      [{ service: 'spool er' }, 'service does not match the pattern [A-Za-z]+'],
      [{ service: 'Spooler', count: '11' }, 'count must be at most 10'],
      [{ service: 'Spooler', count: 'many' }, 'count must be a number'],
      [{ service: 'Spooler', force: 'yes' }, 'force must be true or false'],
      [{ service: 'Spooler', level: 'mid' }, 'level must be one of: low, high'],
      [{ service: 'Spooler', nope: 'x' }, 'The script has no parameter nope'],
    ];
    for (const [params, message] of cases) {
      const res = await run({ device_ids: [1], params });
      expect(res.status, JSON.stringify(params)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    expect((await run({ params: { service: 'Spooler' } })).status).toBe(400);
    expect(calls).toHaveLength(0);
  });

  it('hands the runner the spec: defaults filled, secrets sealed (the runner audits the run with its job)', async () => {
    const res = await run({
      device_ids: [5, 6, 5],
      params: { service: 'Spooler', apikey: 'typed-key' },
      offline: 'skip',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.data).toEqual({ job_id: 4001, devices: 3, skipped: 1 });
    const { spec, target } = calls[0]!;
    expect(target).toEqual({ deviceIds: [5, 6] });
    expect(spec).toMatchObject({
      script_id: script.id,
      script_name: 'Run checks int',
      version: 1,
      language: 'powershell',
      body: 'Write-Output $env:OUTPOST_SERVICE',
      params: { service: 'Spooler', count: '3', force: 'false', level: 'low' },
      timeout_seconds: 120,
      offline: 'skip',
    });
    const box = createSecretBox(server.config.sessionSecret, 'scripts');
    expect(Object.keys(spec.sealed_secrets).sort()).toEqual(['apikey', 'password']);
    expect(box.open(spec.sealed_secrets.password!)).toBe(SAVED);
    expect(box.open(spec.sealed_secrets.apikey!)).toBe('typed-key');
    expect(JSON.stringify(spec)).not.toContain('typed-key');

    const after = await call<ScriptDetail>('GET', `${API}/${script.id}`);
    expect(after.body.data.last_run_at).not.toBeNull();
  });

  it('runs on a group with the given timeout', async () => {
    const res = await run({ group_id: 7, params: { service: 'Dns' }, timeout_seconds: 60 });
    expect(res.status).toBe(201);
    expect(calls.at(-1)).toMatchObject({
      target: { groupId: 7 },
      spec: { timeout_seconds: 60, offline: 'wait' },
    });
  });
});
