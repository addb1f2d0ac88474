import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inputMessages, messages } from '@outpost/contract/messages';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../test/support/live';
import type { AgentSocket } from '../../test/support/live';

type Envelope<T = unknown> = { success: boolean; data: T; error?: string; code?: string };

// Text no Unicode string holds (an unpaired UTF-16 surrogate, which JSON text can still carry as
// "\ud800") and multipart part headers the parser refuses, sent to the real server over HTTP and
// on the agent socket: a 400 with the contract's message / an acknowledged `invalid_message`,
// never a 500 or an `internal_error` the agent would resend forever (SECURITY.md R2-11).
const HIGH = '\ud800';
const LOW = '\udc00';
const ill = inputMessages.illFormedText;

describe('ill-formed text and broken multipart headers are refused, never a 500', () => {
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
      { token, body: { name: 'Ill-formed input target' } },
    );
    packageId = created.body.data.id;
    enrolmentToken = (await createEnrollmentToken((m, p, o) => server.request(m, p, o), token)).token;
  });
  afterAll(() => server.close());

  async function expect400(method: string, path: string, body: unknown, message: string) {
    const res = await server.request<Envelope>(method, path, { token, body });
    expect({ method, path, status: res.status }).toEqual({ method, path, status: 400 });
    expect(res.body.success).toBe(false);
    expect(res.body.error).toContain(message);
  }

  it('refuses unpaired surrogates in step details, device-action data (keys and values), names and enrolment', async () => {
    const step = { step_name: 'Flush DNS', step_type: 'CMD' };
    const steps = `/api/customer/deployment-packages/${packageId}/steps`;
    await expect400('POST', steps, { ...step, step_details: { command: `ipconfig ${HIGH}` } }, ill);
    await expect400('POST', steps, { ...step, step_details: JSON.stringify({ command: `a${LOW}b` }) }, ill);
    await expect400('POST', steps, { ...step, step_name: `x${HIGH}` }, `body.step_name: ${ill}`);
    const action = { device_ids: [1], action_type: 'restart' };
    await expect400(
      'POST',
      '/api/customer/deployments/device-actions',
      { ...action, action_data: { note: `${HIGH}` } },
      `body.action_data.note: ${ill}`,
    );
    await expect400(
      'POST',
      '/api/customer/deployments/device-actions',
      { ...action, action_data: { [`k${HIGH}`]: 'v' } },
      ill,
    );
    await expect400('POST', '/api/customer/deployment-packages', { name: `${LOW}pkg` }, `body.name: ${ill}`);
    await expect400('PUT', '/api/customer/auth/profile', { name: `Ann${HIGH}` }, `body.name: ${ill}`);
    const enrolled = await server.request<Envelope>('POST', '/api/agent/enroll', {
      body: { token: enrolmentToken, facts: facts({ hostname: `pc${HIGH}01` }) },
    });
    expect(enrolled.status).toBe(400);
    expect(enrolled.body.error).toBe(`body.facts.hostname: ${ill}`);
    // A surrogate pair (an emoji) is ordinary text and is kept.
    const ok = await server.request<Envelope<{ name: string }>>('POST', '/api/customer/deployment-packages', {
      token,
      body: { name: 'Rocket \ud83d\ude80' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.data.name).toBe('Rocket \u{1F680}');
  });

  it('answers every multipart parser error, and text no column holds in a part header, with 400', async () => {
    const b = '----outpost-headers';
    const part = (headers: string) => `--${b}\r\n${headers}\r\n\r\nMZ\r\n--${b}--\r\n`;
    const file = 'Content-Disposition: form-data; name="file"; filename="ok.exe"';
    const cases: { body: string; boundary?: string; contentType?: string; code?: string; error?: string }[] =
      [
        // text the database cannot hold, in the part's headers
        {
          body: part('Content-Disposition: form-data; name="file"; filename="a\u0000b.exe"'),
          code: 'UPLOAD_INVALID',
          error: inputMessages.nulCharacter,
        },
        { body: part(`${file}\r\nContent-Type: app\u0000/x`), code: 'UPLOAD_INVALID' },
        { body: part('Content-Disposition: form-data; name="fi\u0000le"; filename="ok.exe"') },
        // headers the parser cannot use
        { body: part('Content-Disposition form-data') },
        { body: part(`X-Long: ${'a'.repeat(90_000)}`) },
        // boundaries and streams the parser refuses
        { body: part(file), boundary: 'x'.repeat(300), code: 'UPLOAD_INVALID' },
        { body: part(file), contentType: 'multipart/form-data', code: 'UPLOAD_INVALID' },
        {
          body: `--${b}\r\n${file}\r\n\r\nMZ`,
          code: 'UPLOAD_INVALID',
          error: inputMessages.uploadIncomplete,
        },
        { body: `--${b}\r\n${file}`, code: 'UPLOAD_INVALID' },
        { body: 'not multipart at all', code: 'UPLOAD_INVALID' },
      ];
    for (const c of cases) {
      const boundary = c.boundary ?? b;
      const body = c.boundary ? c.body.replaceAll(b, boundary) : c.body;
      const result = await rawUpload(body, c.contentType ?? `multipart/form-data; boundary=${boundary}`);
      const label = JSON.stringify(body.slice(0, 90));
      expect({ label, status: result.status }).toEqual({ label, status: 400 });
      expect(result.body.success).toBe(false);
      expect(result.body.error).toEqual(expect.any(String));
      if (c.code) {
        expect({ label, code: result.body.code }).toEqual({ label, code: c.code });
      }
      if (c.error) {
        expect(result.body.error).toContain(c.error);
      }
    }
    const list = await server.request<Envelope>('GET', '/api/customer/files', { token });
    expect(JSON.stringify(list.body)).not.toMatch(/ok\.exe|ab\.exe/);
  });

  function rawUpload(body: string, contentType: string) {
    return new Promise<{ status: number; body: Envelope }>((resolve, reject) => {
      const req = http.request(`${server.url}/api/customer/files`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': contentType },
      });
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) as Envelope }));
      });
      req.on('error', reject);
      req.end(Buffer.from(body, 'latin1'));
    });
  }

  describe('on the agent socket', () => {
    let agent: AgentSocket;

    beforeAll(async () => {
      const creds = await enroll(server, enrolmentToken, facts({ hostname: 'ill-formed-01' }));
      agent = await onlineAgent(server.url, creds.body.data);
    });
    afterAll(() => agent.close());

    it('answers an activity user name or inventory field with an unpaired surrogate: invalid_message for its id, acknowledged', async () => {
      const refused = [
        {
          type: 'activity',
          messageId: 'act-ill-1',
          events: [
            {
              eventType: 'login',
              userName: `bob${HIGH}`,
              sessionId: 's-1',
              timestamp: new Date().toISOString(),
            },
          ],
        },
        {
          type: 'inventory',
          messageId: 'inv-ill-1',
          collectedAt: new Date().toISOString(),
          facts: { hostname: 'ill-formed-01', model: `X${LOW}` },
        },
        {
          type: 'inventory',
          messageId: 'inv-ill-2',
          collectedAt: new Date().toISOString(),
          software: [
            { name: `App${HIGH}`, displayName: null, publisher: null, version: '1.0', installDate: null },
          ],
        },
      ] as const;
      for (const message of refused) {
        agent.send(JSON.stringify(message));
        const error = await agent.waitFor(
          'error',
          (e) => e.code === 'invalid_message' && e.messageId === message.messageId,
        );
        expect(error.message).toContain(messages.agentInvalidMessage);
        expect(error.message).toContain(ill);
        await agent.waitFor('ack', (a) => a.messageId === message.messageId);
      }
      expect(agent.ofType('error').map((e) => e.code)).not.toContain('internal_error');
      // The socket stays usable and the refused text was not stored.
      agent.send({
        type: 'activity',
        messageId: 'act-ok-1',
        events: [
          { eventType: 'login', userName: 'bob', sessionId: 's-2', timestamp: new Date().toISOString() },
        ],
      });
      await agent.waitFor('ack', (a) => a.messageId === 'act-ok-1');
      const devices = await server.request<Envelope<{ hostname: string; model: string | null }[]>>(
        'GET',
        '/api/customer/devices?search=ill-formed-01',
        { token },
      );
      expect(JSON.stringify(devices.body)).not.toContain('\\udc00');
    });

    it('does not acknowledge a frame without a recognisable message id (nothing for the agent to drop)', async () => {
      const before = agent.ofType('ack').length;
      agent.send(JSON.stringify({ type: 'activity', messageId: `m${HIGH}`, events: [] }));
      const error = await agent.waitFor('error', (e) => e.code === 'invalid_message' && !e.messageId);
      expect(error.message).toContain(messages.agentInvalidMessage);
      // a well-formed message after it is acknowledged, and the refused one was not
      agent.send({
        type: 'activity',
        messageId: 'act-ok-2',
        events: [
          { eventType: 'logout', userName: 'bob', sessionId: 's-2', timestamp: new Date().toISOString() },
        ],
      });
      await agent.waitFor('ack', (a) => a.messageId === 'act-ok-2');
      expect(
        agent
          .ofType('ack')
          .slice(before)
          .map((a) => a.messageId),
      ).toEqual(['act-ok-2']);
    });
  });
});
