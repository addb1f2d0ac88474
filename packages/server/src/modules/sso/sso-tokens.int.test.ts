import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWTPayload } from 'jose';
import type { AppConfig, SessionUser } from '@outpost/contract/auth';
import { SSO_CALLBACK_PATH, ssoMessages } from '@outpost/contract/sso';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { landing } from '../../../test/oidc-provider';

type Envelope<T> = { success: boolean; data: T; error?: string };

/**
 * A provider whose token endpoint answers whatever ID token the test minted with a local key, so
 * the callback's checks (signature, issuer, audience, expiry, nonce) meet each bad token.
 */
async function startMintingProvider() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  let nextToken: (nonce: string) => Promise<string> = () => Promise.resolve('');
  const nonces = new Map<string, string>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', issuer);
    res.setHeader('content-type', 'application/json');
    if (url.pathname === '/.well-known/openid-configuration') {
      res.end(
        JSON.stringify({
          issuer,
          authorization_endpoint: `${issuer}/authorize`,
          token_endpoint: `${issuer}/token`,
          jwks_uri: `${issuer}/jwks`,
        }),
      );
    } else if (url.pathname === '/jwks') {
      res.end(JSON.stringify({ keys: [jwk] }));
    } else if (url.pathname === '/token') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        const code = new URLSearchParams(body).get('code') ?? '';
        void nextToken(nonces.get(code) ?? '').then((idToken) =>
          res.end(JSON.stringify({ id_token: idToken })),
        );
      });
    } else {
      res.statusCode = 404;
      res.end('{}');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const mint = (
    claims: JWTPayload,
    opts: { iss?: string; aud?: string; exp?: number; key?: CryptoKey } = {},
  ) =>
    new SignJWT({ email_verified: true, ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(opts.iss ?? issuer)
      .setAudience(opts.aud ?? 'outpost-okta')
      .setSubject('okta-user-1')
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? '5m')
      .sign(opts.key ?? privateKey);

  return {
    get issuer() {
      return issuer;
    },
    mint,
    otherKey: other.privateKey,
    /** the token the next code exchange answers, given the nonce the authorize request carried */
    answer(fn: (nonce: string) => Promise<string>) {
      nextToken = fn;
    },
    remember: (code: string, nonce: string) => nonces.set(code, nonce),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('single sign-on refuses bad ID tokens (a server-wide provider such as Okta)', () => {
  let idp: Awaited<ReturnType<typeof startMintingProvider>>;
  let server: TestServer;

  beforeAll(async () => {
    idp = await startMintingProvider();
    server = await startTestServer({
      env: {
        OIDC_ISSUER: idp.issuer,
        OIDC_CLIENT_ID: 'outpost-okta',
        OIDC_CLIENT_SECRET: 'okta-secret',
        OIDC_NAME: 'Okta',
      },
    });
    await server.seedDemo();
    await server.request('POST', '/api/customer/users', {
      token: (await server.devSignIn('admin@acme.example')).token,
      body: { email: 'okta.person@acme.example' },
    });
  });
  afterAll(async () => {
    await server.close();
    await idp.close();
  });

  /** start → (the provider would log in) → our callback with a code; answers the landing fragment */
  async function callback(
    token: (nonce: string) => Promise<string>,
    tamper?: { state?: string; cookie?: string },
  ) {
    const started = await fetch(`${server.url}/api/customer/auth/oidc/start`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ provider: 'oidc' }),
    });
    const authorize = new URL(
      ((await started.json()) as { data: { authorize_url: string } }).data.authorize_url,
    );
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${server.url}${SSO_CALLBACK_PATH}`);
    const cookie = started.headers.getSetCookie()[0]!.split(';')[0]!;
    expect(started.headers.getSetCookie()[0]).toMatch(/HttpOnly; SameSite=Lax/);
    const code = `code-${Math.floor(performance.now() * 1000)}`;
    idp.remember(code, authorize.searchParams.get('nonce')!);
    idp.answer(token);
    const state = tamper?.state ?? authorize.searchParams.get('state')!;
    const res = await fetch(
      `${server.url}${SSO_CALLBACK_PATH}?code=${code}&state=${encodeURIComponent(state)}`,
      {
        redirect: 'manual',
        headers: { cookie: tamper?.cookie ?? cookie },
      },
    );
    expect(res.status).toBe(303);
    const location = new URL(res.headers.get('location')!, server.url);
    expect(location.pathname).toBe('/login');
    return landing(location.toString());
  }

  it('names the provider on the sign-in screen', async () => {
    const res = await server.request<Envelope<AppConfig>>('GET', '/api/config');
    expect(res.body.data.sso).toEqual({ microsoft: false, oidcName: 'Okta' });
  });

  it('signs in with a good token', async () => {
    const landed = await callback((nonce) => idp.mint({ email: 'okta.person@acme.example', nonce }));
    const me = await server.request<Envelope<SessionUser>>('GET', '/api/customer/auth/profile', {
      token: landed.token!,
    });
    expect(me.body.data.email).toBe('okta.person@acme.example');
  });

  it.each([
    [
      'a wrong nonce',
      (n: string) => idp.mint({ email: 'okta.person@acme.example', nonce: `${n}x` }),
      ssoMessages.tokenWrongNonce,
    ],
    ['no nonce', () => idp.mint({ email: 'okta.person@acme.example' }), ssoMessages.tokenWrongNonce],
    [
      'a wrong audience',
      (nonce: string) => idp.mint({ email: 'okta.person@acme.example', nonce }, { aud: 'someone-else' }),
      ssoMessages.tokenWrongAudience,
    ],
    [
      'a wrong issuer',
      (nonce: string) =>
        idp.mint({ email: 'okta.person@acme.example', nonce }, { iss: 'https://evil.example' }),
      ssoMessages.tokenWrongIssuer,
    ],
    [
      'an expired token',
      (nonce: string) =>
        idp.mint({ email: 'okta.person@acme.example', nonce }, { exp: Math.floor(Date.now() / 1000) - 120 }),
      ssoMessages.tokenExpired,
    ],
    [
      'a signature by another key',
      (nonce: string) => idp.mint({ email: 'okta.person@acme.example', nonce }, { key: idp.otherKey }),
      ssoMessages.tokenInvalid,
    ],
    [
      'an unverified e-mail',
      (nonce: string) => idp.mint({ email: 'okta.person@acme.example', nonce, email_verified: false }),
      ssoMessages.emailUnverified,
    ],
  ])('refuses %s', async (_name, token, message) => {
    expect(await callback(token)).toEqual({ error: message });
  });

  it('refuses a callback whose state does not match, or without the flow cookie', async () => {
    const good = (nonce: string) => idp.mint({ email: 'okta.person@acme.example', nonce });
    expect(await callback(good, { state: 'forged' })).toEqual({ error: ssoMessages.flowExpired });
    expect(await callback(good, { cookie: 'outpost_sso=v1.garbage' })).toEqual({
      error: ssoMessages.flowExpired,
    });
  });

  it('shows the provider refusal in its own words', async () => {
    const res = await fetch(
      `${server.url}${SSO_CALLBACK_PATH}?error=access_denied&error_description=User%20cancelled`,
      {
        redirect: 'manual',
      },
    );
    expect(landing(new URL(res.headers.get('location')!, server.url).toString())).toEqual({
      error: ssoMessages.providerRefused('User cancelled'),
    });
  });

  it('keeps Microsoft disabled when Entra ID is not configured', async () => {
    const res = await server.request<Envelope<unknown>>('POST', '/api/customer/auth/oidc/start', {
      body: { provider: 'microsoft' },
    });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe(ssoMessages.microsoftDisabled);
  });
});
