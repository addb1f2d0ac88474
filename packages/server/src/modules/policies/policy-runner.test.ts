import { describe, expect, it } from 'vitest';
import type { PolicyRow } from './policies.queries';
import { MISSED_GRACE_MS, byZone, dueOccurrence, zoneOf } from './policy-runner';

// Which occurrence a pass runs (docs/decisions/2026-11-26-policy-schedules.md): the latest one
// since the policy became active, while at most MISSED_GRACE_MS old.

const at = (text: string) => Date.parse(text);
const policy = (over: Partial<PolicyRow> = {}) =>
  ({
    schedule: { frequency: 'daily', time: '02:30' },
    activeSince: new Date('2026-06-01T00:00:00Z'),
    ...over,
  }) as PolicyRow;

describe('due occurrences', () => {
  it('is the latest occurrence in the zone, once it has happened', () => {
    expect(dueOccurrence(policy(), 'UTC', at('2026-06-01T03:00:00Z'))).toBe(at('2026-06-01T02:30:00Z'));
    // the day before's is a day old by then: past the grace
    expect(dueOccurrence(policy(), 'UTC', at('2026-06-02T02:29:59Z'))).toBeNull();
    expect(dueOccurrence(policy(), 'UTC', at('2026-06-02T02:30:00Z'))).toBe(at('2026-06-02T02:30:00Z'));
    expect(dueOccurrence(policy(), 'Europe/Berlin', at('2026-06-02T00:31:00Z'))).toBe(
      at('2026-06-02T00:30:00Z'),
    );
  });

  it('runs a missed occurrence late within the grace, and skips an older one', () => {
    const occurrence = at('2026-06-02T02:30:00Z');
    expect(dueOccurrence(policy(), 'UTC', occurrence + MISSED_GRACE_MS)).toBe(occurrence);
    expect(dueOccurrence(policy(), 'UTC', occurrence + MISSED_GRACE_MS + 1)).toBeNull();
  });

  it('never runs an occurrence from before the policy became active, nor without a schedule', () => {
    const active = policy({ activeSince: new Date('2026-06-02T02:30:00Z') });
    expect(dueOccurrence(active, 'UTC', at('2026-06-02T03:00:00Z'))).toBeNull();
    expect(dueOccurrence(policy({ activeSince: null }), 'UTC', at('2026-06-02T03:00:00Z'))).toBeNull();
    expect(dueOccurrence(policy({ schedule: null }), 'UTC', at('2026-06-02T03:00:00Z'))).toBeNull();
  });

  it('puts devices without a known time zone in UTC', () => {
    expect(zoneOf(null)).toBe('UTC');
    expect(zoneOf('Not/AZone')).toBe('UTC');
    expect(zoneOf('Asia/Tokyo')).toBe('Asia/Tokyo');
    const m = (id: number, zone: string | null) => ({ id, zone }) as Parameters<typeof byZone>[0][number];
    expect(
      [...byZone([m(1, 'Asia/Tokyo'), m(2, null), m(3, 'Asia/Tokyo')])].map(([z, d]) => [
        z,
        d.map((x) => x.id),
      ]),
    ).toEqual([
      ['Asia/Tokyo', [1, 3]],
      ['UTC', [2]],
    ]);
  });
});
