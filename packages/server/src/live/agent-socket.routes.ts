import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import { messages } from '@outpost/contract/messages';
import type { Db } from '../db/client';
import { authenticateAgent } from '../modules/agents/agent-auth';
import type { DeviceRef } from './device-state';
import { createMemoryBucket, createRedisBucket, createWindowCounter } from './rate-limit';

// WS /api/agent/ws (ARCHITECTURE §4). Credentials are checked before the upgrade, so an
// unauthenticated client never gets a socket, and in this order:
//   1. an address past its budget of failed authentications is refused (429) before any lookup;
//   2. the guid and secret are checked (one indexed lookup, one sha256); a failure counts
//      against the client's address;
//   3. only an authenticated agent spends the shared upgrade budget (a rate with a burst); one it
//      refuses gets 503 with a Retry-After that is its place in line (rate-limit.ts
//      createMemoryBucket), so a reconnect storm drains at the budget's rate.
// Anonymous traffic therefore never uses up the budget of real agents. With Redis both limits
// are shared by every instance.

export type AgentSocketLimits = {
  upgradesPerSecond: number;
  upgradeBurst: number;
  /** failed authentications one client address may make per window before it is refused */
  authFailuresPerAddress: number;
  authFailureWindowMs: number;
};

export const agentSocketRoutes: FastifyPluginCallback<{
  db: Db;
  limits: AgentSocketLimits;
  redis: Redis | null;
  redisPrefix: string;
}> = (app, opts, done) => {
  const { db, limits, redis } = opts;
  const budget = redis
    ? createRedisBucket(
        redis,
        `${opts.redisPrefix}agent-upgrades`,
        limits.upgradesPerSecond,
        limits.upgradeBurst,
      )
    : createMemoryBucket(limits.upgradesPerSecond, limits.upgradeBurst);
  const failures = createWindowCounter(
    redis,
    `${opts.redisPrefix}agent-auth-failures:`,
    limits.authFailuresPerAddress,
    limits.authFailureWindowMs,
  );
  const authed = new WeakMap<FastifyRequest, DeviceRef>();

  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const blockedFor = await failures.blockedFor(request.ip);
    if (blockedFor > 0) {
      return reply
        .status(429)
        .header('retry-after', String(blockedFor))
        .send({ success: false, error: messages.agentTooManyFailures, code: 'TOO_MANY_FAILURES' });
    }
    const guid = request.headers[AGENT_DEVICE_HEADER];
    const auth = request.headers.authorization;
    const secret = auth?.startsWith('Bearer ') ? auth.slice(7).trim() : '';
    if (typeof guid !== 'string' || !secret) {
      await failures.hit(request.ip);
      return reply
        .status(401)
        .send({ success: false, error: messages.agentAuthMissing, code: 'AGENT_AUTH_MISSING' });
    }
    const device = await authenticateAgent(db, guid, secret);
    if (!device) {
      await failures.hit(request.ip);
      request.log.info({ guid }, 'agent authentication failed');
      return reply
        .status(401)
        .send({ success: false, error: messages.agentAuthFailed, code: 'AGENT_AUTH_FAILED' });
    }
    const admission = await budget.take(String(device.id));
    if (!admission.isAllowed) {
      return reply
        .status(503)
        .header('retry-after', String(admission.retryAfterSeconds))
        .send({ success: false, error: messages.agentTooManyConnections, code: 'TOO_MANY_CONNECTIONS' });
    }
    authed.set(request, device);
  }

  app.get(
    '/agent/ws',
    { config: { access: 'agent' }, websocket: true, onRequest: authenticate, schema: { hide: true } },
    (socket, request) => {
      const device = authed.get(request);
      if (!device) {
        socket.close(1013, 'Try again later');
        return;
      }
      app.agentHub.accept(socket, device, request.ip);
    },
  );
  done();
};
