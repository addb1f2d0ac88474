import type { ServerResponse } from 'node:http';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import type { WebSocket } from 'ws';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import { messages } from '@outpost/contract/messages';
import { bearerToken } from '../lib/bearer';
import type { DeviceRef } from './device-state';
import { createGate } from './gate';
import { createMemoryBucket, createRedisBucket, createWindowCounter } from './rate-limit';

// WS /api/agent/ws (docs/product/agent-protocol.md). Credentials are checked before the upgrade, so an
// unauthenticated client never gets a socket, and in this order:
//   0. while more returning agents wait for their hello to be recorded than the server works
//      through in 10 s (gate.ts), every upgrade is refused (503) before any lookup, told the next
//      free turn at the measured hello rate (turns.ts): it costs the server little, and anonymous
//      clients cannot cause it;
//   1. an address past its budget of failed authentications is refused (429) before any lookup;
//   2. the guid and secret are checked (one indexed lookup, one sha256), a few upgrades at a time
//      (gate.ts: the rest wait in memory, not in the database pool ahead of the hellos); a failure
//      counts against the client's address;
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
  /** the device whose guid and secret these are, or null (modules/agents/agent-auth.ts, wired in app.ts) */
  authenticate: (deviceGuid: string, secret: string) => Promise<DeviceRef | null>;
  limits: AgentSocketLimits;
  redis: Redis | null;
  redisPrefix: string;
}> = (app, opts, done) => {
  const { limits, redis } = opts;
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
  const authed = new WeakMap<FastifyRequest, { device: DeviceRef; response: ServerResponse }>();
  const lookups = createGate(LOOKUPS_AT_ONCE);

  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    if (app.agentHub.isBusy) {
      return reply
        .status(503)
        .header('retry-after', String(app.agentHub.busyRetryAfterSeconds()))
        .send({ success: false, error: messages.agentTooManyConnections, code: 'TOO_MANY_CONNECTIONS' });
    }
    const blockedFor = await failures.blockedFor(request.ip);
    if (blockedFor > 0) {
      return reply
        .status(429)
        .header('retry-after', String(blockedFor))
        .send({ success: false, error: messages.agentTooManyFailures, code: 'TOO_MANY_FAILURES' });
    }
    const guid = request.headers[AGENT_DEVICE_HEADER];
    const secret = bearerToken(request.headers.authorization);
    if (typeof guid !== 'string' || !secret) {
      await failures.hit(request.ip);
      return reply
        .status(401)
        .send({ success: false, error: messages.agentAuthMissing, code: 'AGENT_AUTH_MISSING' });
    }
    const leave = await lookups.enter();
    const device = await opts.authenticate(guid, secret).finally(leave);
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
    authed.set(request, { device, response: reply.raw });
  }

  app.get(
    '/agent/ws',
    { config: { access: 'agent' }, websocket: true, onRequest: authenticate, schema: { hide: true } },
    (socket, request) => {
      const upgrade = authed.get(request);
      if (!upgrade) {
        socket.close(1013, 'Try again later');
        return;
      }
      authed.delete(request);
      const inherited = socket.listeners('error') as ErrorListener[];
      app.agentHub.accept(socket, upgrade.device, request.ip);
      releaseUpgrade(socket, inherited, upgrade.response);
    },
  );
  done();
};

/**
 * Credential lookups at once. After a restart, thousands of upgrades arrive within seconds; each
 * lookup queued in the pool (10 connections) ahead of the hellos, and the first agent was welcomed
 * only once every lookup had run (4 s after ready on a quiet machine, 17 s on a loaded one).
 */
const LOOKUPS_AT_ONCE = 4;

/**
 * Lets go of the upgrade's HTTP objects once the socket is the hub's (docs/architecture.md#reliability-and-scale "Fleet
 * scale", memory per agent). @fastify/websocket leaves the upgrade's ServerResponse attached to the
 * TCP socket and an error listener on the websocket that closes over the request and the reply,
 * so every open socket kept its request, response, headers and request logger. The plugin's
 * listeners (`inherited`) are removed only when the hub added its own.
 */
type ErrorListener = (err: Error) => void;

function releaseUpgrade(socket: WebSocket, inherited: ErrorListener[], response: ServerResponse) {
  if (response.socket) {
    response.detachSocket(response.socket);
  }
  if (socket.listenerCount('error') > inherited.length) {
    for (const listener of inherited) {
      socket.off('error', listener);
    }
  }
}
