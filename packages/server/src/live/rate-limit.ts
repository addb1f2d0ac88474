import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Redis } from 'ioredis';
import { messages } from '@outpost/contract/messages';

// Limits for the agent socket. In memory for one instance; in Redis when REDIS_URL is set, so N
// instances enforce one limit (docs/product/agent-protocol.md#several-instances). Both shapes answer the same small interfaces.

export type Admission = { isAllowed: boolean; retryAfterSeconds: number };

/**
 * A token bucket: `rate` admissions per second, at most `burst` at once. A class, not closures:
 * every agent connection holds one (docs/decisions/2026-11-26-fleet-scale.md, memory per agent).
 */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    private readonly rate: number,
    private readonly burst: number,
    private readonly clock: { now(): number } = Date,
  ) {
    this.tokens = burst;
    this.last = clock.now();
  }

  take(): boolean {
    const t = this.clock.now();
    this.tokens = Math.min(this.burst, this.tokens + ((t - this.last) / 1000) * this.rate);
    this.last = t;
    if (this.tokens >= 1) {
      this.tokens -= 1;
      return true;
    }
    return false;
  }
}

/**
 * The upgrade budget shared by every authenticated agent: `rate` admissions per second, `burst`
 * at once. A refused caller is not just told to come back later: it is given a place in line (a
 * reservation at the time the budget will have a token for it), and Retry-After says when that is.
 * Coming back at (or after) that time it is admitted without spending anything more, so a
 * reconnect storm of N agents drains at `rate` a second in about N ÷ rate seconds, instead of
 * every agent retrying at random and most of the retries being refused again. A caller asking
 * again before its time gets the same place (one reservation per key: a device hammering the
 * server cannot push the others back); a reservation not used within a minute lapses.
 */
export type SharedBucket = { take(key: string): Promise<Admission> };

/** How long past its time a reservation is kept for its caller. */
const RESERVATION_GRACE_MS = 60_000;

/**
 * The admission decision (the generic cell rate algorithm with reservations), the same in memory
 * and in Redis: `tat` is when the budget is next fully idle; a caller conforms when tat − now is
 * at most (burst − 1) intervals. Returns the ms to wait (0: admitted) and the new state.
 */
export function admit(
  state: { tat: number; reservedAt: number | null },
  now: number,
  rate: number,
  burst: number,
): { waitMs: number; tat: number; reserveAt: number | null } {
  const { reservedAt } = state;
  if (reservedAt !== null && now <= reservedAt + RESERVATION_GRACE_MS) {
    return reservedAt <= now
      ? { waitMs: 0, tat: state.tat, reserveAt: null }
      : { waitMs: reservedAt - now, tat: state.tat, reserveAt: reservedAt };
  }
  const interval = 1000 / rate;
  const tat = Math.max(state.tat, now);
  const conformsAt = tat - (Math.max(1, burst) - 1) * interval;
  if (conformsAt <= now) {
    return { waitMs: 0, tat: tat + interval, reserveAt: null };
  }
  return { waitMs: conformsAt - now, tat: tat + interval, reserveAt: conformsAt };
}

const toAdmission = (waitMs: number): Admission => ({
  isAllowed: waitMs <= 0,
  retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
});

export function createMemoryBucket(rate: number, burst: number, now: () => number = Date.now): SharedBucket {
  let tat = 0;
  const reservations = new Map<string, number>();
  return {
    take(key) {
      const t = now();
      const decision = admit({ tat, reservedAt: reservations.get(key) ?? null }, t, rate, burst);
      tat = decision.tat;
      if (decision.reserveAt === null) {
        reservations.delete(key);
      } else {
        // Lapsed reservations are dropped as new ones are made: the map holds at most the
        // callers waiting in line (one per device), not every device that ever waited.
        if (!reservations.has(key) && reservations.size >= 1000 && reservations.size % 1000 === 0) {
          for (const [k, at] of reservations) {
            if (at + RESERVATION_GRACE_MS < t) {
              reservations.delete(k);
            }
          }
        }
        reservations.set(key, decision.reserveAt);
      }
      return Promise.resolve(toAdmission(decision.waitMs));
    },
  };
}

// One round trip, atomic, on the Redis clock: admit() in Lua. KEYS[1] holds tat, KEYS[2] the
// caller's reservation. Returns the ms to wait (0: admitted).
const UPGRADE_BUDGET_LUA = `
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local grace = tonumber(ARGV[3])
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local reserved = tonumber(redis.call('GET', KEYS[2]))
if reserved and now <= reserved + grace then
  if reserved <= now then
    redis.call('DEL', KEYS[2])
    return 0
  end
  return math.ceil(reserved - now)
end
local interval = 1000 / rate
local tat = math.max(tonumber(redis.call('GET', KEYS[1])) or 0, now)
local conforms = tat - (math.max(1, burst) - 1) * interval
redis.call('SET', KEYS[1], tostring(tat + interval), 'PX', math.ceil(tat + interval - now + burst * interval) + 1000)
if conforms <= now then
  redis.call('DEL', KEYS[2])
  return 0
end
redis.call('SET', KEYS[2], tostring(conforms), 'PX', math.ceil(conforms - now + grace))
return math.ceil(conforms - now)
`;

export function createRedisBucket(redis: Redis, key: string, rate: number, burst: number): SharedBucket {
  return {
    async take(caller) {
      try {
        const waitMs = await redis.eval(
          UPGRADE_BUDGET_LUA,
          2,
          key,
          `${key}:reserved:${caller}`,
          rate,
          burst,
          RESERVATION_GRACE_MS,
        );
        return toAdmission(Number(waitMs));
      } catch {
        // Fail open: a Redis outage (logged by the connection) must not lock every agent out.
        return toAdmission(0);
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
