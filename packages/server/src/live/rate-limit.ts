import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { messages } from '@outpost/contract/messages';

// Limits for the agent socket. In memory for one instance; in Redis when REDIS_URL is set, so N
// instances enforce one limit (ARCHITECTURE §8). Both shapes answer the same small interfaces.

export type Admission = { isAllowed: boolean; retryAfterSeconds: number };

/** A token bucket: `rate` admissions per second, at most `burst` at once. */
export function createTokenBucket(rate: number, burst: number, now: () => number = Date.now) {
  let tokens = burst;
  let last = now();
  return {
    take(): boolean {
      const t = now();
      tokens = Math.min(burst, tokens + ((t - last) / 1000) * rate);
      last = t;
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    },
    retryAfterSeconds: () => Math.max(1, Math.ceil(1 / rate)),
  };
}

/** Admissions shared by every caller (the upgrade budget of authenticated agents). */
export type SharedBucket = { take(): Promise<Admission> };

export function createMemoryBucket(rate: number, burst: number): SharedBucket {
  const bucket = createTokenBucket(rate, burst);
  return {
    take: () => Promise.resolve({ isAllowed: bucket.take(), retryAfterSeconds: bucket.retryAfterSeconds() }),
  };
}

// One round trip, atomic: refill by elapsed time (Redis clock), take one token if there is one.
const TOKEN_BUCKET_LUA = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1]) or burst
local at = tonumber(state[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - at) / 1000 * rate)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', now)
redis.call('PEXPIRE', KEYS[1], math.ceil(burst / rate * 1000) + 1000)
return allowed
`;

export function createRedisBucket(redis: Redis, key: string, rate: number, burst: number): SharedBucket {
  const retryAfterSeconds = Math.max(1, Math.ceil(1 / rate));
  return {
    async take() {
      try {
        const allowed = await redis.eval(TOKEN_BUCKET_LUA, 1, key, rate, burst);
        return { isAllowed: allowed === 1, retryAfterSeconds };
      } catch {
        // Fail open: a Redis outage (logged by the connection) must not lock every agent out.
        return { isAllowed: true, retryAfterSeconds };
      }
    },
  };
}

/**
 * Attempts per key (a client address, a token) in a fixed window: once `max` are counted, the key
 * is refused until the window ends, before any lookup is made for it.
 */
export type WindowCounter = {
  /** seconds until the key may try again, or 0 when it may try now */
  blockedFor(key: string): Promise<number>;
  hit(key: string): Promise<void>;
};

export function createMemoryWindowCounter(
  max: number,
  windowMs: number,
  now: () => number = Date.now,
): WindowCounter {
  const windows = new Map<string, { count: number; resetAt: number }>();
  const current = (key: string) => {
    const w = windows.get(key);
    if (w && w.resetAt <= now()) {
      windows.delete(key);
      return undefined;
    }
    return w;
  };
  return {
    blockedFor(key) {
      const w = current(key);
      return Promise.resolve(w && w.count >= max ? Math.max(1, Math.ceil((w.resetAt - now()) / 1000)) : 0);
    },
    hit(key) {
      const w = current(key);
      if (w) {
        w.count += 1;
      } else {
        // Expired windows are dropped as new ones start, so an address flood cannot grow the map forever.
        if (windows.size > 10_000) {
          for (const [k, old] of windows) {
            if (old.resetAt <= now()) {
              windows.delete(k);
            }
          }
        }
        windows.set(key, { count: 1, resetAt: now() + windowMs });
      }
      return Promise.resolve();
    },
  };
}

export function createRedisWindowCounter(
  redis: Redis,
  prefix: string,
  max: number,
  windowMs: number,
): WindowCounter {
  return {
    async blockedFor(key) {
      try {
        const [count, ttl] = await redis
          .multi()
          .get(prefix + key)
          .pttl(prefix + key)
          .exec()
          .then((r) => (r ?? []).map(([, value]) => value));
        return Number(count ?? 0) >= max ? Math.max(1, Math.ceil(Number(ttl) / 1000)) : 0;
      } catch {
        // Fail open, like @fastify/rate-limit's skipOnError: Redis being away blocks nobody.
        return 0;
      }
    },
    async hit(key) {
      // The window starts at the first hit (NX), like the in-memory counter.
      await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, windowMs, 'NX')
        .exec()
        .catch(() => null);
    },
  };
}

export function createWindowCounter(
  redis: Redis | null,
  prefix: string,
  max: number,
  windowMs: number,
): WindowCounter {
  return redis
    ? createRedisWindowCounter(redis, prefix, max, windowMs)
    : createMemoryWindowCounter(max, windowMs);
}

// ---------- enrolment (POST /api/agent/enroll) ----------

export type EnrollLimits = {
  /** enrolments per client address per minute (the route's @fastify/rate-limit config) */
  perAddressPerMinute: number;
  /** failed enrolments (unknown, revoked or expired token) per client address per minute */
  failuresPerAddress: number;
  /** enrolments with one token per minute, from every address together */
  perTokenPerMinute: number;
};

/**
 * Enrolment limits, keyed by client address and by token. An office of hundreds of machines
 * behind one NAT address shares one token and never fails, so it only meets the generous
 * per-address and per-token limits (agents retry with backoff); someone spraying tokens fails at
 * once and is refused after a few attempts, before any lookup. With Redis every instance counts
 * together.
 */
export function createEnrollGuard(redis: Redis | null, prefix: string, limits: EnrollLimits) {
  const minute = 60_000;
  const failures = createWindowCounter(redis, `${prefix}enroll-failures:`, limits.failuresPerAddress, minute);
  const perToken = createWindowCounter(redis, `${prefix}enroll-token:`, limits.perTokenPerMinute, minute);
  const tokenKey = (request: FastifyRequest) => {
    const body = request.body as { token?: unknown } | undefined;
    const token = typeof body?.token === 'string' ? body.token : '';
    return crypto.createHash('sha256').update(token).digest('hex').slice(0, 32);
  };
  const refuse = (reply: FastifyReply, seconds: number) =>
    reply
      .status(429)
      .header('retry-after', String(seconds))
      .send({ success: false, error: messages.tooManyRequests, code: 'RATE_LIMITED' });
  return {
    /** the route's per-address limit, in @fastify/rate-limit's store (Redis when configured) */
    rateLimit: { max: limits.perAddressPerMinute, timeWindow: '1 minute' },
    preHandler: async (request: FastifyRequest, reply: FastifyReply) => {
      const blocked = Math.max(
        await failures.blockedFor(request.ip),
        await perToken.blockedFor(tokenKey(request)),
      );
      if (blocked > 0) {
        return refuse(reply, blocked);
      }
      await perToken.hit(tokenKey(request));
    },
    /** a refused token counts against the address it came from */
    onError: async (request: FastifyRequest, _reply: FastifyReply, error: { statusCode?: number }) => {
      if (error.statusCode === 401) {
        await failures.hit(request.ip);
      }
    },
  };
}

export type EnrollGuard = ReturnType<typeof createEnrollGuard>;
