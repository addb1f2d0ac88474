import { describe, expect, it } from 'vitest';
import { afterAttempt, retryDelayMs } from './outbox';

describe('notification outbox', () => {
  it('waits 30 s after the first failure, doubling up to an hour', () => {
    expect([1, 2, 3, 4, 8, 20].map(retryDelayMs)).toEqual([
      30_000, 60_000, 120_000, 240_000, 3_600_000, 3_600_000,
    ]);
  });

  const created = new Date('2026-11-27T00:00:00Z');
  const fail = { ok: false, code: 500, error: 'The endpoint answered 500' };

  it('a delivered attempt ends the row; a failed one is tried again later', () => {
    const now = created.getTime() + 1000;
    expect(
      afterAttempt({ attempts: 0, createdAt: created }, { ok: true, code: 204, error: null }, now),
    ).toMatchObject({
      status: 'delivered',
      nextAttemptAt: null,
      code: 204,
    });
    const again = afterAttempt({ attempts: 2, createdAt: created }, fail, now);
    expect(again).toMatchObject({ status: 'pending', code: 500, error: fail.error });
    expect(again.nextAttemptAt?.getTime()).toBe(now + 120_000);
  });

  it('gives up after 24 hours of retries, or at once when the failure cannot pass', () => {
    const late = created.getTime() + 23.9 * 3600_000;
    expect(afterAttempt({ attempts: 30, createdAt: created }, fail, late)).toMatchObject({
      status: 'failed',
      nextAttemptAt: null,
    });
    expect(
      afterAttempt({ attempts: 0, createdAt: created }, { ...fail, final: true }, created.getTime()),
    ).toMatchObject({ status: 'failed' });
  });
});
