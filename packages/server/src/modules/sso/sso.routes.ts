import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  SSO_CALLBACK_PATH,
  SSO_FLOW_TTL_SECONDS,
  SSO_LANDING_PATH,
  SsoProviderBody,
  SsoProviderResponse,
  SsoStartBody,
  SsoStartResult,
  ssoMessages,
} from '@outpost/contract/sso';
import { HttpError } from '../../lib/errors';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import { FLOW_COOKIE } from './sso-sign-in';
import type { SsoSignIn } from './sso-sign-in';
import type { SsoService } from './sso.service';

export type SsoRoutesOptions = {
  service: SsoService;
  signIn: SsoSignIn;
  /** OUTPOST_PUBLIC_URL; null: the redirect URI is built from the request (behind TRUST_PROXY) */
  publicUrl: string | null;
  signInPerMinute: number;
};

const ok = <T>(data: T) => ({ success: true as const, data });
const meta = (r: FastifyRequest) => ({
  ip: r.ip,
  userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : null,
});
const COOKIE_PATH = SSO_CALLBACK_PATH.replace(/\/callback$/, '');

function redirectUri(publicUrl: string | null, request: FastifyRequest): string {
  return `${publicUrl ?? `${request.protocol}://${request.host}`}${SSO_CALLBACK_PATH}`;
}

function flowCookie(value: string, request: FastifyRequest, maxAge: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${FLOW_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`;
}

function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) {
      return rest.join('=');
    }
  }
  return undefined;
}

const CallbackQuery = z.object({
  code: z.string().max(4096).optional(),
  state: z.string().max(512).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(1024).optional(),
});

// docs/product/sign-in.md#single-sign-on, under /api/customer: the sign-in flow (public) and the
// SSO screen's calls (administrators of all sites; the service checks).
export const ssoRoutes: FastifyPluginCallbackZod<SsoRoutesOptions> = (app, opts, done) => {
  const tags = ['sso'];
  const rateLimit = { max: opts.signInPerMinute, timeWindow: '1 minute' };
  useSpecValidationMessages(app);

  app.post(
    '/auth/oidc/start',
    {
      config: { access: 'public', rateLimit },
      schema: { tags, body: SsoStartBody, response: { 200: apiSuccess(SsoStartResult) } },
    },
    async (request, reply) => {
      const started = await opts.signIn.start(request.body, redirectUri(opts.publicUrl, request));
      void reply.header('set-cookie', flowCookie(started.cookie, request, SSO_FLOW_TTL_SECONDS));
      return ok({ authorize_url: started.url });
    },
  );

  // The provider sends the browser here; the browser lands on the web app's page with the session
  // token (or the refusal's words) in the fragment, which never reaches a server or a log.
  app.get(
    '/auth/oidc/callback',
    { config: { access: 'public', rateLimit }, schema: { tags, querystring: CallbackQuery } },
    async (request, reply) => {
      let fragment: string;
      try {
        const result = await opts.signIn.finish(
          request.query,
          readCookie(request, FLOW_COOKIE),
          meta(request),
        );
        fragment = new URLSearchParams({ sso_token: result.token }).toString();
      } catch (err) {
        if (!(err instanceof HttpError)) {
          request.log.error({ err }, 'single sign-on callback failed');
        }
        const message = err instanceof HttpError ? err.message : ssoMessages.codeExchangeFailed;
        fragment = new URLSearchParams({ sso_error: message }).toString();
      }
      void reply.header('set-cookie', flowCookie('', request, 0));
      return reply.redirect(`${SSO_LANDING_PATH}#${fragment}`, 303);
    },
  );

  app.get(
    '/sso-provider',
    { config: { access: 'admin' }, schema: { tags, response: { 200: apiSuccess(SsoProviderResponse) } } },
    async (request) => ok(await opts.service.get(request.ctx, redirectUri(opts.publicUrl, request))),
  );
  app.put(
    '/sso-provider',
    {
      config: { access: 'admin' },
      schema: { tags, body: SsoProviderBody, response: { 200: apiSuccess(SsoProviderResponse) } },
    },
    async (request) =>
      ok(await opts.service.put(request.ctx, request.body, redirectUri(opts.publicUrl, request))),
  );
  app.delete(
    '/sso-provider',
    {
      config: { access: 'admin' },
      schema: { tags, response: { 200: apiSuccess(z.object({ deleted: z.literal(true) })) } },
    },
    async (request) => {
      await opts.service.remove(request.ctx, redirectUri(opts.publicUrl, request));
      return ok({ deleted: true as const });
    },
  );
  done();
};
