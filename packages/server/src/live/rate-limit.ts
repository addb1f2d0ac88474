import type { Redis } from 'ioredis';

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
      const allowed = await redis.eval(TOKEN_BUCKET_LUA, 1, key, rate, burst);
      return { isAllowed: allowed === 1, retryAfterSeconds };
    },
  };
}

/**
 * Failed attempts per key (a client address) in a fixed window: once `max` failures are counted,
 * the key is refused until the window ends, before any lookup is made for it.
 */
export type FailureCounter = {
  /** seconds until the key may try again, or 0 when it may try now */
  blockedFor(key: string): Promise<number>;
  fail(key: string): Promise<void>;
};

export function createMemoryFailureCounter(
  max: number,
  windowMs: number,
  now: () => number = Date.now,
): FailureCounter {
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
    fail(key) {
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

export function createRedisFailureCounter(
  redis: Redis,
  prefix: string,
  max: number,
  windowMs: number,
): FailureCounter {
  return {
    async blockedFor(key) {
      const [count, ttl] = await redis
        .multi()
        .get(prefix + key)
        .pttl(prefix + key)
        .exec()
        .then((r) => (r ?? []).map(([, value]) => value));
      return Number(count ?? 0) >= max ? Math.max(1, Math.ceil(Number(ttl) / 1000)) : 0;
    },
    async fail(key) {
      // The window starts at the first failure (NX), like the in-memory counter.
      await redis
        .multi()
        .incr(prefix + key)
        .pexpire(prefix + key, windowMs, 'NX')
        .exec();
    },
  };
}
