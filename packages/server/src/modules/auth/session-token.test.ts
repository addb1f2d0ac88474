import { describe, expect, it } from 'vitest';
import { SignJWT } from 'jose';
import { createSessionTokens } from './session-token';

const secret = new TextEncoder().encode('a-test-secret-that-is-long-enough-1234567890');

describe('session tokens', () => {
  const tokens = createSessionTokens(secret);

  it('round-trips the claims', async () => {
    const token = await tokens.issue({ userId: 7, tenantId: 3, role: 'tenant_admin' });
    expect(await tokens.verify(token)).toEqual({ userId: 7, tenantId: 3, role: 'tenant_admin' });
  });

  it('refuses a token signed with another key, an expired one and garbage', async () => {
    const other = createSessionTokens(
      new TextEncoder().encode('another-secret-that-is-long-enough-0987654321'),
    );
    expect(await tokens.verify(await other.issue({ userId: 1, tenantId: 1, role: 'user' }))).toBeNull();
    const expired = await new SignJWT({ tid: 1, role: 'user' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('1')
      .setIssuer('outpost')
      .setExpirationTime(Math.floor(Date.now() / 1000) - 10)
      .sign(secret);
    expect(await tokens.verify(expired)).toBeNull();
    expect(await tokens.verify('not.a.token')).toBeNull();
  });
});
