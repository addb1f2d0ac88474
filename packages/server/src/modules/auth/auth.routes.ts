import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import {
  AppConfig,
  DevSignInBody,
  GoogleSignInBody,
  LinkSignInBody,
  ProfileUpdateBody,
  SessionUser,
  SignInResult,
  SwitchTenantBody,
  TenantOption,
} from '@outpost/contract/auth';
import { apiSuccess } from '@outpost/contract/envelope';
import { messages } from '@outpost/contract/messages';
import { z } from 'zod';
import { forbidden } from '../../lib/errors';
import type { Config } from '../../config';
import { devSignInAllowed } from './auth.service';
import type { AuthService } from './auth.service';
import type { OidcVerifier } from './oidc-verifier';

export type AuthRoutesOptions = {
  service: AuthService;
  config: Config;
  googleVerifier: OidcVerifier | null;
  version: string;
};

const meta = (r: { ip: string; headers: Record<string, unknown> }) => ({
  ip: r.ip,
  userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : null,
});

// docs/product/sign-in.md#calls.
// Plugins that only declare routes take Fastify's callback form (nothing to await).
export const authRoutes: FastifyPluginCallbackZod<AuthRoutesOptions> = (app, opts, done) => {
  const { service } = opts;

  app.post(
    '/auth/google',
    {
      config: { access: 'public', rateLimit: { max: opts.config.signInPerMinute, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], body: GoogleSignInBody, response: { 200: apiSuccess(SignInResult) } },
    },
    async (request) => {
      if (!opts.googleVerifier) {
        throw forbidden(messages.googleLoginDisabled, 'GOOGLE_DISABLED');
      }
      const identity = await opts.googleVerifier(request.body.token);
      const data = await service.signIn(identity, meta(request), 'Google');
      return { success: true as const, data };
    },
  );

  app.post(
    '/auth/dev',
    {
      config: { access: 'public', rateLimit: { max: opts.config.signInPerMinute, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], body: DevSignInBody, response: { 200: apiSuccess(SignInResult) } },
    },
    async (request) => {
      if (!opts.config.devLogin) {
        throw forbidden(messages.devLoginDisabled, 'DEV_LOGIN_DISABLED');
      }
      if (!devSignInAllowed(opts.config, request)) {
        request.log.warn({ ip: request.ip }, 'dev sign-in refused: the caller is not on this machine');
        throw forbidden(messages.devLoginLocalOnly, 'DEV_LOGIN_LOCAL_ONLY');
      }
      return { success: true as const, data: await service.signInDev(request.body.email, meta(request)) };
    },
  );

  // A one-time link from `npm run outpost -- sign-in-link` (SECURITY.md R2-7): works once, 15 minutes.
  app.post(
    '/auth/link',
    {
      config: { access: 'public', rateLimit: { max: opts.config.signInPerMinute, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], body: LinkSignInBody, response: { 200: apiSuccess(SignInResult) } },
    },
    async (request) => ({
      success: true as const,
      data: await service.signInWithLink(request.body.token, meta(request)),
    }),
  );

  // Sign-out ends the session on the server too (docs/decisions/2026-11-26-server-side-sessions.md);
  // the client removes its token at once whether or not this call succeeds.
  app.post(
    '/auth/logout',
    {
      config: { access: 'member' },
      schema: { tags: ['auth'], response: { 200: apiSuccess(z.object({ signed_out: z.literal(true) })) } },
    },
    async (request) => {
      await service.signOut(request.ctx);
      return { success: true as const, data: { signed_out: true as const } };
    },
  );

  app.get(
    '/auth/profile',
    { config: { access: 'member' }, schema: { tags: ['auth'], response: { 200: apiSuccess(SessionUser) } } },
    async (request) => ({ success: true as const, data: await service.getProfile(request.ctx) }),
  );

  app.put(
    '/auth/profile',
    {
      config: { access: 'member' },
      schema: { tags: ['auth'], body: ProfileUpdateBody, response: { 200: apiSuccess(SessionUser) } },
    },
    async (request) => ({
      success: true as const,
      data: await service.updateProfile(request.ctx, request.body),
    }),
  );

  app.get(
    '/auth/tenants',
    {
      config: { access: 'member' },
      schema: { tags: ['auth'], response: { 200: apiSuccess(z.array(TenantOption)) } },
    },
    async (request) => ({ success: true as const, data: await service.listTenants(request.ctx) }),
  );

  app.post(
    '/auth/switch-tenant',
    {
      config: { access: 'member' },
      schema: { tags: ['auth'], body: SwitchTenantBody, response: { 200: apiSuccess(SignInResult) } },
    },
    async (request) => ({
      success: true as const,
      data: await service.switchTenant(request.ctx, request.body.tenant_id),
    }),
  );
  done();
};

export const configRoute: FastifyPluginCallbackZod<AuthRoutesOptions> = (app, opts, done) => {
  app.get(
    '/config',
    { config: { access: 'public' }, schema: { tags: ['config'], response: { 200: apiSuccess(AppConfig) } } },
    async (request) => {
      // Honest for this caller: dev sign-in is offered only where POST /auth/dev would accept it.
      const devLogin = devSignInAllowed(opts.config, request);
      return {
        success: true as const,
        data: {
          googleClientId: opts.config.google.clientId,
          devLogin,
          devUsers: devLogin ? await opts.service.devLoginUsers() : [],
          version: opts.version,
          sso: {
            microsoft: opts.config.sso.microsoft !== null,
            oidcName: opts.config.sso.oidc?.name ?? null,
          },
        },
      };
    },
  );
  done();
};
