import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CreatedEnrollmentToken,
  CreateEnrollmentTokenBody,
  EnrollmentToken,
  EnrollmentTokenIdParams,
} from '@outpost/contract/agents';
import { EnrollBody, EnrollResult } from '@outpost/contract/agent-protocol';
import { apiSuccess } from '@outpost/contract/envelope';
import type { EnrollGuard } from '../../live/rate-limit';
import type { AgentsService } from './agents.service';

export type AgentsRoutesOptions = { service: AgentsService };

const meta = (r: { ip: string; headers: Record<string, unknown> }) => ({
  ip: r.ip,
  userAgent: typeof r.headers['user-agent'] === 'string' ? r.headers['user-agent'] : null,
});

/** Enrolment tokens, under /api/customer (session required; admin only, checked in the service). */
export const enrollmentTokenRoutes: FastifyPluginCallbackZod<AgentsRoutesOptions> = (app, opts, done) => {
  const { service } = opts;

  app.post(
    '/agents/enrollment-tokens',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['agents'],
        body: CreateEnrollmentTokenBody,
        response: { 200: apiSuccess(CreatedEnrollmentToken) },
      },
    },
    async (request) => {
      const serverUrl = `${request.protocol}://${request.host}`;
      return {
        success: true as const,
        data: await service.createToken(request.ctx, request.body, serverUrl),
      };
    },
  );

  app.get(
    '/agents/enrollment-tokens',
    {
      config: { access: 'admin' },
      schema: { tags: ['agents'], response: { 200: apiSuccess(z.array(EnrollmentToken)) } },
    },
    async (request) => ({ success: true as const, data: await service.listTokens(request.ctx) }),
  );

  app.delete(
    '/agents/enrollment-tokens/:id',
    {
      config: { access: 'admin' },
      schema: {
        tags: ['agents'],
        params: EnrollmentTokenIdParams,
        response: { 200: apiSuccess(EnrollmentToken) },
      },
    },
    async (request) => ({
      success: true as const,
      data: await service.revokeToken(request.ctx, request.params.id),
    }),
  );
  done();
};

/** POST /api/agent/enroll: public, authorised by the enrolment token; limited per address and per token. */
export const agentEnrollRoutes: FastifyPluginCallbackZod<AgentsRoutesOptions & { guard: EnrollGuard }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;

  app.post(
    '/enroll',
    {
      config: { access: 'agent', rateLimit: opts.guard.rateLimit },
      preHandler: opts.guard.preHandler,
      onError: opts.guard.onError,
      schema: {
        tags: ['agent'],
        security: [],
        body: EnrollBody,
        response: { 200: apiSuccess(EnrollResult) },
      },
    },
    async (request) => ({ success: true as const, data: await service.enroll(request.body, meta(request)) }),
  );
  done();
};
