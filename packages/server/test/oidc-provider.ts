import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { KoaContextWithOIDC } from 'oidc-provider';
import { SSO_LANDING_PATH } from '@outpost/contract/sso';

// A real OpenID Connect provider for the tests: `oidc-provider` (the certified Node implementation)
// on a local port, with its development login screen (any login, any password: the login is the
// account's id). Accounts' claims, groups included, can change between sign-ins.

export type TestAccount = { email: string; email_verified?: boolean; name?: string; groups?: string[] };
export type TestClient = { client_id: string; client_secret: string; redirect_uris: string[] };

export async function startOidcProvider() {
  const accounts = new Map<string, TestAccount>();
  let handler: http.RequestListener = (_req, res) => {
    res.statusCode = 503;
    res.end();
  };
  const server = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  /** Registers the clients (once the relying party's redirect URI is known) and starts serving. */
  function serve(clients: TestClient[]) {
    const provider = new Provider(issuer, {
      clients: clients.map((c) => ({ ...c, grant_types: ['authorization_code'], response_types: ['code'] })),
      findAccount(_ctx: KoaContextWithOIDC, id: string) {
        const account = accounts.get(id) ?? { email: id };
        return Promise.resolve({
          accountId: id,
          claims: () => ({ sub: id, email_verified: true, ...account }),
        });
      },
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
      // the claims of the scopes asked for go into the ID token itself, as Entra's and Okta's do
      conformIdTokenClaims: false,
      features: { devInteractions: { enabled: true } },
      pkce: { required: () => true },
      cookies: { keys: ['outpost-tests-oidc-provider-cookie-key'] },
      ttl: { Interaction: 600, Grant: 600, Session: 600, AccessToken: 600, IdToken: 600 },
      // a first-party client: no consent screen
      async loadExistingGrant(ctx: KoaContextWithOIDC) {
        const session = ctx.oidc.session!;
        const clientId = ctx.oidc.client!.clientId;
        const known = session.grantIdFor(clientId);
        if (known) {
          return ctx.oidc.provider.Grant.find(known);
        }
        const grant = new ctx.oidc.provider.Grant({ clientId, accountId: session.accountId! });
        grant.addOIDCScope('openid email profile');
        await grant.save();
        session.grantIdFor(clientId, grant.jti);
        return grant;
      },
    });
    const callback = provider.callback();
    handler = (req, res) => {
      void callback(req, res);
    };
  }

  return {
    issuer,
    accounts,
    serve,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export type OidcTestProvider = Awaited<ReturnType<typeof startOidcProvider>>;

/** The landing page's fragment: the session token, or the refusal's words. */
export function landing(url: string): { token?: string; error?: string } {
  const params = new URLSearchParams(new URL(url).hash.slice(1));
  const token = params.get('sso_token');
  const error = params.get('sso_error');
  return { ...(token !== null && { token }), ...(error !== null && { error }) };
}

/** A cookie jar for one browser: Set-Cookie in, Cookie out, per host. */
class Jar {
  private readonly cookies = new Map<string, Map<string, string>>();
  take(url: string, res: Response) {
    const host = new URL(url).host;
    const jar = this.cookies.get(host) ?? new Map<string, string>();
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, ...rest] = (pair ?? '').split('=');
      const value = rest.join('=');
      if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') {
        jar.delete(name!.trim());
      } else {
        jar.set(name!.trim(), value);
      }
    }
    this.cookies.set(host, jar);
  }
  header(url: string): string {
    const jar = this.cookies.get(new URL(url).host);
    return jar ? [...jar].map(([k, v]) => `${k}=${v}`).join('; ') : '';
  }
}

/**
 * What a browser does from the sign-in screen's button to the landing page: the start call, the
 * provider's login form (submitted with `login`), every redirect, and the callback on our server.
 * Answers the landing page's fragment (`token` or `error`).
 */
export async function browserSignIn(
  outpostUrl: string,
  start: { provider: 'microsoft' | 'oidc' | 'organization'; email?: string },
  login: string,
): Promise<{ token?: string; error?: string }> {
  const jar = new Jar();
  const startUrl = `${outpostUrl}/api/customer/auth/oidc/start`;
  const started = await fetch(startUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(start),
  });
  if (started.status !== 200) {
    return { error: ((await started.json()) as { error: string }).error };
  }
  jar.take(startUrl, started);
  let url = ((await started.json()) as { data: { authorize_url: string } }).data.authorize_url;
  let init: RequestInit = {};
  for (let hop = 0; hop < 20; hop += 1) {
    const res = await fetch(url, {
      ...init,
      redirect: 'manual',
      headers: { ...(init.headers as Record<string, string>), cookie: jar.header(url) },
    });
    jar.take(url, res);
    init = {};
    const location = res.headers.get('location');
    if (location) {
      url = new URL(location, url).toString();
      if (new URL(url).pathname === SSO_LANDING_PATH) {
        return landing(url);
      }
      continue;
    }
    const html = await res.text();
    if (/name="prompt" value="login"/.test(html)) {
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      url = new URL(action!, url).toString();
      init = {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ prompt: 'login', login, password: 'any' }).toString(),
      };
      continue;
    }
    throw new Error(`unexpected page at ${url}: ${res.status} ${html.slice(0, 300)}`);
  }
  throw new Error('too many redirects');
}
