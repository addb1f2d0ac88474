import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { SESSION_TOKEN_TTL_SECONDS } from '@outpost/contract/limits';
import { createSessionTokens } from './session-token';

const secret = new TextEncoder().encode('a-test-secret-that-is-long-enough-1234567890');

describe('session tokens', () => {
  const tokens = createSessionTokens(secret);

  it('round-trips the claims', async () => {
    const token = await tokens.issue({
      userId: 7,
      tenantId: 3,
      role: 'tenant_admin',
      sessionId: 's-1',
      identityId: 1,
    });
    expect(await tokens.verify(token)).toEqual({
      userId: 7,
      tenantId: 3,
      role: 'tenant_admin',
      sessionId: 's-1',
      identityId: 1,
    });
  });

  it('refuses a token signed with another key, an expired one and garbage', async () => {
    const other = createSessionTokens(
      new TextEncoder().encode('another-secret-that-is-long-enough-0987654321'),
    );
    expect(
      await tokens.verify(
        await other.issue({ userId: 1, tenantId: 1, role: 'user', sessionId: 's-2', identityId: 2 }),
      ),
    ).toBeNull();
    const expired = await new SignJWT({ tid: 1, role: 'user', sid: 's-2', idn: 2 })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('outpost')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(secret);
    expect(await tokens.verify(expired)).toBeNull();
    expect(await tokens.verify('not.a.token')).toBeNull();
  });

  it('refuses a token of ours that names no session (issued before server-side sessions)', async () => {
    const sessionless = await new SignJWT({ tid: 1, role: 'user' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('outpost')
      .setExpirationTime('1h')
      .sign(secret);
    expect(await tokens.verify(sessionless)).toBeNull();
  });
});

describe('session tokens: a verified token is remembered until it expires', () => {
  it('answers the same claims again, and null once the token has expired', async () => {
    let now = Date.now();
    const tokens = createSessionTokens(secret, { now: () => now });
    const claims = { userId: 5, tenantId: 2, role: 'user', sessionId: 's-2', identityId: 2 } as const;
    const token = await tokens.issue(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    now += (SESSION_TOKEN_TTL_SECONDS + 1) * 1000;
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('never takes a tampered token for a remembered one', async () => {
    const tokens = createSessionTokens(secret);
    const token = await tokens.issue({
      userId: 5,
      tenantId: 2,
      role: 'user',
      sessionId: 's-2',
      identityId: 2,
    });
    expect(await tokens.verify(token)).not.toBeNull();
    const [header, , signature] = token.split('.');
    const body = Buffer.from(
      JSON.stringify({ sub: '5', tid: 2, role: 'tenant_admin', iss: 'outpost' }),
    ).toString('base64url');
    expect(await tokens.verify(`${header}.${body}.${signature}`)).toBeNull();
  });
});
