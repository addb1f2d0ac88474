import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  AppConfig,
  DevSignInBody,
  GoogleSignInBody,
  ProfileUpdateBody,
  SessionUser,
  SignInResult,
  SwitchTenantBody,
  TenantOption,
} from '@outpost/contract/auth';
import { apiSuccess } from '@outpost/contract/envelope';
import { messages } from '@outpost/contract/messages';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { forbidden } from '../../lib/errors';
import type { Config } from '../../config';
import { createAuthService } from './auth.service';
import { listDevLoginUsers } from './auth.queries';
import type { OidcVerifier } from './oidc-verifier';
import type { SessionTokens } from './session-token';

export type AuthRoutesOptions = {
  db: Db;
  config: Config;
  tokens: SessionTokens;
  googleVerifier: OidcVerifier | null;
  version: string;
};

const meta = (r: { ip: string; headers: Record<string, unknown> }) => ({
  ip: r.ip,
  userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : null,
});

// spec: core §7 Auth.
export const authRoutes: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  const service = createAuthService(opts.db, opts.tokens);

  app.post(
    '/auth/google',
    {
      config: { isPublic: true, rateLimit: { max: opts.config.signInPerMinute, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], body: GoogleSignInBody, response: { 200: apiSuccess(SignInResult) } },
    },
    async (request) => {
      if (!opts.googleVerifier) {
        throw forbidden(messages.googleLoginDisabled, 'GOOGLE_DISABLED');
      }
      const identity = await opts.googleVerifier(request.body.token);
      const data = await service.signIn(identity.email, identity.name, meta(request), 'Google');
      return { success: true as const, data };
    },
  );

  app.post(
    '/auth/dev',
    {
      config: { isPublic: true, rateLimit: { max: opts.config.signInPerMinute, timeWindow: '1 minute' } },
      schema: { tags: ['auth'], body: DevSignInBody, response: { 200: apiSuccess(SignInResult) } },
    },
    async (request) => {
      if (!opts.config.devLogin) {
        throw forbidden(messages.devLoginDisabled, 'DEV_LOGIN_DISABLED');
      }
      const data = await service.signIn(request.body.email.toLowerCase(), null, meta(request), 'dev sign-in');
      return { success: true as const, data };
    },
  );

  app.get(
    '/auth/profile',
    { schema: { tags: ['auth'], response: { 200: apiSuccess(SessionUser) } } },
    async (request) => ({ success: true as const, data: await service.getProfile(request.ctx) }),
  );

  app.put(
    '/auth/profile',
    { schema: { tags: ['auth'], body: ProfileUpdateBody, response: { 200: apiSuccess(SessionUser) } } },
    async (request) => ({
      success: true as const,
      data: await service.updateProfile(request.ctx, request.body),
    }),
  );

  app.get(
    '/auth/tenants',
    { schema: { tags: ['auth'], response: { 200: apiSuccess(z.array(TenantOption)) } } },
    async (request) => ({ success: true as const, data: await service.listTenants(request.ctx) }),
  );

  app.post(
    '/auth/switch-tenant',
    { schema: { tags: ['auth'], body: SwitchTenantBody, response: { 200: apiSuccess(SignInResult) } } },
    async (request) => ({
      success: true as const,
      data: await service.switchTenant(request.ctx, request.body.tenant_id),
    }),
  );
};

export const configRoute: FastifyPluginAsyncZod<AuthRoutesOptions> = async (app, opts) => {
  app.get(
    '/config',
    { schema: { tags: ['config'], response: { 200: apiSuccess(AppConfig) } } },
    async () => ({
      success: true as const,
      data: {
        googleClientId: opts.config.google.clientId,
        devLogin: opts.config.devLogin,
        devUsers: opts.config.devLogin ? await listDevLoginUsers(opts.db) : [],
        version: opts.version,
      },
    }),
  );
};
