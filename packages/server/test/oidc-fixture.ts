import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import type { CryptoKey, JWTPayload } from 'jose';

/**
 * A stand-in identity provider: serves a JWKS over HTTP and mints ID tokens, so tests run the
 * production verifier (remote JWKS fetch, iss, aud, exp, email_verified) unchanged.
 */
export async function startOidcFixture() {
  const { publicKey, privateKey } = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  const server = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/certs`;
  const clientId = 'outpost-test.apps.googleusercontent.com';
  const issuer = 'https://accounts.google.com';

  async function mint(
    claims: JWTPayload,
    opts: { aud?: string; iss?: string; expiresIn?: string | number; key?: CryptoKey } = {},
  ) {
    return (
      new SignJWT({ email_verified: true, ...claims })
        .setProtectedHeader({ alg: 'RS256', kid: 'test-key' })
        .setIssuer(opts.iss ?? issuer)
        .setAudience(opts.aud ?? clientId)
        // One subject per person, as a provider has: the e-mail's unless the test names one.
        .setSubject(typeof claims.sub === 'string' ? claims.sub : `sub-${String(claims.email).toLowerCase()}`)
        .setIssuedAt()
        .setExpirationTime(opts.expiresIn ?? '1h')
        .sign(opts.key ?? privateKey)
    );
  }

  return {
    jwksUrl,
    clientId,
    issuer,
    mint,
    otherKey: other.privateKey,
    env: { GOOGLE_CLIENT_ID: clientId, GOOGLE_JWKS_URL: jwksUrl },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
