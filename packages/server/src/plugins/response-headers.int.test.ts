import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';

// Response headers over HTTP on the real server (SECURITY.md, response headers): API answers are
// never cached, HSTS is sent only over HTTPS (here: a proxy TRUST_PROXY trusts says so), and the
// CSP lets the portal connect to its own origin (and Google's sign-in) only.

type Envelope<T = unknown> = { success: boolean; data: T };

/** A GET over HTTP from `localAddress` with the given headers; resolves the response headers. */
function getFrom(server: TestServer, path: string, localAddress: string, headers: Record<string, string>) {
  return new Promise<http.IncomingHttpHeaders>((resolve, reject) => {
    const req = http.request(new URL(path, server.url), { localAddress, headers });
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve(res.headers));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('API responses are not cached', () => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    token = (await server.devSignIn('admin@acme.example')).token;
  });
  afterAll(() => server.close());

  it('sends Cache-Control: no-store on authenticated answers, errors and public API answers', async () => {
    for (const [path, withToken] of [
      ['/api/customer/devices', true],
      ['/api/customer/auth/me', true],
      ['/api/customer/users', true],
      ['/api/customer/devices', false],
      ['/api/customer/nothing-here', true],
      ['/api/config', false],
      ['/api/health', false],
    ] as const) {
      const res = await server.request('GET', path, {
        token: withToken ? token : undefined,
      });
      expect({ path, cacheControl: res.headers.get('cache-control') }).toEqual({
        path,
        cacheControl: 'no-store',
      });
    }
    // A sign-in answer carries the session token itself.
    const signIn = await server.request('POST', '/api/customer/auth/dev', {
      body: { email: 'admin@acme.example' },
    });
    expect(signIn.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves a route’s own Cache-Control (a file download) in place', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('MZ')]), 'setup.exe');
    const uploaded = await fetch(`${server.url}/api/customer/files`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const file = ((await uploaded.json()) as Envelope<{ id: number }>).data;
    expect(uploaded.headers.get('cache-control')).toBe('no-store');
    const res = await fetch(`${server.url}/api/customer/files/${file.id}/download`, {
      headers: { authorization: `Bearer ${token}` },
    });
    await res.arrayBuffer();
    expect(res.headers.get('cache-control')).toBe('private, no-store');
  });
});

describe('HSTS only over HTTPS', () => {
  let direct: TestServer;
  let proxied: TestServer;

  beforeAll(async () => {
    direct = await startTestServer();
    // the proxy is 127.0.0.1; a client at 127.0.0.2 reaches the instance directly
    proxied = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => {
    await direct.close();
    await proxied.close();
  });

  it('is not sent over plain HTTP, whatever X-Forwarded-Proto an untrusted client writes', async () => {
    expect(
      (await getFrom(direct, '/api/health', '127.0.0.1', {}))['strict-transport-security'],
    ).toBeUndefined();
    const spoofed = { 'x-forwarded-proto': 'https' };
    expect(
      (await getFrom(direct, '/api/health', '127.0.0.1', spoofed))['strict-transport-security'],
    ).toBeUndefined();
    expect(
      (await getFrom(proxied, '/api/health', '127.0.0.2', spoofed))['strict-transport-security'],
    ).toBeUndefined();
  });

  it('is sent when the trusted proxy says the request came over HTTPS', async () => {
    const headers = await getFrom(proxied, '/api/health', '127.0.0.1', { 'x-forwarded-proto': 'https' });
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });
});

describe('Content-Security-Policy', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it('limits connect-src to the portal’s own origin and Google’s sign-in', async () => {
    for (const path of ['/', '/devices', '/api/health']) {
      const res = await fetch(server.url + path);
      await res.arrayBuffer();
      const csp = res.headers.get('content-security-policy') ?? '';
      const connect = csp.split(';').find((d) => d.trim().startsWith('connect-src'));
      expect({ path, connect: connect?.trim() }).toEqual({
        path,
        connect: "connect-src 'self' https://accounts.google.com/gsi/",
      });
    }
  });
});
