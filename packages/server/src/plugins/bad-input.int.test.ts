import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INT4_MAX } from '@outpost/contract/input';
import { inputMessages } from '@outpost/contract/messages';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { createEnrollmentToken, facts } from '../../test/support/live';

type Envelope<T = unknown> = { success: boolean; data: T; error?: string; code?: string };

// Input the database cannot hold (NUL characters, ids beyond int4, a truncated upload, nesting
// deep enough to overflow a recursive walk) sent to the real server over HTTP: each is a 400
// with a message naming the field, never a 500. One case per route family.
const NUL = '\u0000';
const BIG = INT4_MAX + 1;
const deep = (levels: number) => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) {
    value = { a: value };
  }
  return value;
};
/** 50,000 levels as JSON text, built without a recursive JSON.stringify. */
const deepJson = (levels: number) => `${'{"a":'.repeat(levels)}"bottom"${'}'.repeat(levels)}`;

describe('bad input is a 400 with a message on every route family', () => {
  let server: TestServer;
  let token: string;
  let packageId: number;
  let enrolmentToken: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
    const created = await server.request<Envelope<{ id: number }>>(
      'POST',
      '/api/customer/deployment-packages',
      {
        token,
        body: { name: 'Bad input target' },
      },
    );
    packageId = created.body.data.id;
    enrolmentToken = (await createEnrollmentToken((m, p, o) => server.request(m, p, o), token)).token;
  });
  afterAll(() => server.close());

  async function expect400(method: string, path: string, body?: unknown, message?: string) {
    const res = await server.request<Envelope>(method, path, { token, body });
    expect({ method, path, status: res.status }).toEqual({ method, path, status: 400 });
    expect(res.body.success).toBe(false);
    expect(res.body.error).toEqual(expect.any(String));
    if (message) {
      expect(res.body.error).toContain(message);
    }
    return res.body;
  }

  it('refuses a NUL character in searches, names, profile fields, step commands, token names and hostnames', async () => {
    const nul = inputMessages.nulCharacter;
    await expect400('GET', '/api/customer/devices?search=a%00b', undefined, `querystring.search: ${nul}`);
    await expect400('GET', '/api/customer/deployment-packages?search=%00', undefined, nul);
    await expect400('GET', '/api/customer/devices/1/software?search=x%00', undefined, nul);
    await expect400('GET', '/api/customer/devices/a%00b', undefined, `params.id: ${nul}`);
    await expect400('POST', '/api/customer/deployment-packages', { name: `a${NUL}b` }, `body.name: ${nul}`);
    await expect400('PUT', `/api/customer/deployment-packages/${packageId}`, { name: `x${NUL}` }, nul);
    await expect400('PUT', '/api/customer/auth/profile', { name: `Ann${NUL}` }, `body.name: ${nul}`);
    await expect400('PUT', '/api/customer/auth/profile', { company: `${NUL}Acme` }, `body.company: ${nul}`);
    await expect400(
      'POST',
      '/api/customer/agents/enrollment-tokens',
      { name: `t${NUL}` },
      `body.name: ${nul}`,
    );
    await expect400('POST', '/api/customer/deployments/device-actions', {
      device_ids: [1],
      action_type: 'restart',
      action_data: { note: `x${NUL}` },
    });
    // Step details arrive as a JSON string (docs/product/packages.md#fields), so the NUL is only in its text.
    const step = { step_name: 'Flush DNS', step_type: 'CMD' };
    await expect400(
      'POST',
      `/api/customer/deployment-packages/${packageId}/steps`,
      { ...step, step_details: JSON.stringify({ command: `ipconfig${NUL} /flushdns` }) },
      nul,
    );
    await expect400(
      'POST',
      `/api/customer/deployment-packages/${packageId}/steps`,
      { ...step, step_details: { command: `ipconfig /flushdns${NUL}` } },
      nul,
    );
    // Enrolment is unauthenticated but must answer the same.
    const enrol = await server.request<Envelope>('POST', '/api/agent/enroll', {
      body: { token: enrolmentToken, facts: facts({ hostname: `pc${NUL}01` }) },
    });
    expect(enrol.status).toBe(400);
    expect(enrol.body.error).toBe(`body.facts.hostname: ${nul}`);
  });

  it('refuses ids beyond 2³¹−1 in paths, queries and bodies', async () => {
    const id = inputMessages.idInvalid;
    for (const [method, path] of [
      ['GET', `/api/customer/files/${BIG}`],
      ['GET', `/api/customer/files/${BIG}/download`],
      ['DELETE', `/api/customer/files/${BIG}`],
      ['GET', `/api/customer/deployment-packages/${BIG}`],
      ['DELETE', `/api/customer/deployment-packages/${BIG}`],
      ['GET', `/api/customer/deployment-packages/${BIG}/export`],
      ['DELETE', `/api/customer/deployment-packages/${packageId}/steps/${BIG}`],
      ['DELETE', `/api/customer/agents/enrollment-tokens/${BIG}`],
      ['GET', `/api/customer/devices?site_id=${BIG}`],
      ['GET', `/api/customer/deployments/device-actions/list?device_id=${BIG}`],
    ] as const) {
      await expect400(method, path, undefined, id);
    }
    // The packages routes answer with the field's message alone (docs/product/packages.md#saving wording).
    await expect400('PUT', `/api/customer/deployment-packages/${BIG}`, { name: 'x' }, id);
    await expect400('POST', `/api/customer/deployment-packages/${BIG}/duplicate`, {}, id);
    await expect400(
      'PUT',
      `/api/customer/deployment-packages/${packageId}/steps/${BIG}`,
      { step_name: 'x', step_type: 'CMD', step_details: { command: 'x' } },
      id,
    );
    await expect400(
      'PUT',
      `/api/customer/deployment-packages/${packageId}/steps/reorder`,
      { stepOrders: [{ id: BIG, step_order: 1 }] },
      id,
    );
    await expect400('DELETE', '/api/customer/devices', { device_ids: [1, BIG] }, `body.device_ids.1: ${id}`);
    await expect400('POST', '/api/customer/deployments/device-actions', {
      device_ids: [BIG],
      action_type: 'restart',
    });
    await expect400('POST', '/api/customer/deployments/device-actions', {
      device_id: BIG,
      action_type: 'shutdown',
    });
    await expect400(
      'POST',
      '/api/customer/agents/enrollment-tokens',
      { site_id: BIG },
      `body.site_id: ${id}`,
    );
    await expect400('POST', '/api/customer/auth/switch-tenant', { tenant_id: BIG }, id);
    await expect400(
      'GET',
      '/api/customer/devices?page=100000000000000000000',
      undefined,
      inputMessages.pageInvalid,
    );
    await expect400(
      'GET',
      `/api/customer/deployment-packages?page=${BIG}`,
      undefined,
      inputMessages.pageInvalid,
    );
    // A device is addressed by id or guid: an id out of range is simply no device.
    expect((await server.request('GET', `/api/customer/devices/${BIG}`, { token })).status).toBe(404);
  });

  it('refuses a 50,000-deep action_data and other deep bodies without overflowing', async () => {
    for (const path of [
      '/api/customer/deployments/device-actions',
      '/api/customer/deployment-packages/import',
    ]) {
      const res = await server.request<Envelope>('POST', path, {
        token,
        body: `{"device_ids":[1],"action_type":"restart","action_data":${deepJson(50_000)}}`,
      });
      expect(res.status).toBe(400);
      expect(res.body.error).toContain(inputMessages.tooDeep(32));
    }
    await expect400(
      'PUT',
      '/api/customer/auth/profile',
      { name: 'x', extra: deep(40) },
      inputMessages.tooDeep(32),
    );
    // Modest nesting is fine.
    const ok = await server.request<Envelope>('PUT', '/api/customer/auth/profile', {
      token,
      body: { name: 'Ann' },
    });
    expect(ok.status).toBe(200);
  });

  it('answers a truncated multipart upload with 400 and keeps nothing', async () => {
    const boundary = '----outpost-truncated';
    const head =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="setup.exe"\r\n` +
      'Content-Type: application/octet-stream\r\n\r\n';
    const result = await new Promise<{ status: number; body: Envelope }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/customer/files`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope }));
      });
      req.on('error', reject);
      // The file's bytes, then the request ends with no closing boundary.
      req.end(head + 'MZ'.repeat(5000));
    });
    expect(result.status).toBe(400);
    expect(result.body.error).toBe(inputMessages.uploadIncomplete);
    const list = await server.request<Envelope<unknown[]>>('GET', '/api/customer/files', { token });
    expect(JSON.stringify(list.body)).not.toContain('setup.exe');
  });
});
