import { describe, expect, it } from 'vitest';
import { planAlertMessage, quietUntil } from './quiet-hours';

// docs/product/monitoring.md#quiet-hours-and-digests

const at = (iso: string) => Date.parse(iso);

describe('quiet hours', () => {
  const night = { start: '22:00', end: '07:00', time_zone: 'Europe/Berlin' };

  it('spans midnight in the channel’s zone and says when it ends', () => {
    // 23:30 in Berlin (winter, UTC+1)
    expect(quietUntil(night, at('2026-11-27T22:30:00Z'))?.toISOString()).toBe('2026-11-28T06:00:00.000Z');
    // 06:59:30 in Berlin: quiet for 30 more seconds
    expect(quietUntil(night, at('2026-11-28T05:59:30Z'))?.toISOString()).toBe('2026-11-28T06:00:00.000Z');
    // 07:00 is past the end; noon is not quiet
    expect(quietUntil(night, at('2026-11-28T06:00:00Z'))).toBeNull();
    expect(quietUntil(night, at('2026-11-28T11:00:00Z'))).toBeNull();
  });

  it('a daytime window and another zone', () => {
    const lunch = { start: '12:00', end: '13:00', time_zone: 'America/New_York' };
    expect(quietUntil(lunch, at('2026-11-27T17:15:00Z'))?.toISOString()).toBe('2026-11-27T18:00:00.000Z');
    expect(quietUntil(lunch, at('2026-11-27T16:59:00Z'))).toBeNull();
  });

  it('critical messages go out through quiet hours; others wait for the end', () => {
    const channel = { quietHours: night, digest: null };
    const now = at('2026-11-27T22:30:00Z');
    expect(planAlertMessage(channel, 'critical', 0, now)).toEqual({ kind: 'now' });
    expect(planAlertMessage(channel, 'warning', 0, now)).toEqual({
      kind: 'digest',
      sendAt: new Date('2026-11-28T06:00:00.000Z'),
    });
  });

  it('past the flood limit a message joins the digest sent at the window’s end', () => {
    const channel = { quietHours: null, digest: { max_alerts: 3, minutes: 10 } };
    const now = at('2026-11-27T12:00:00Z');
    expect(planAlertMessage(channel, 'critical', 2, now)).toEqual({ kind: 'now' });
    expect(planAlertMessage(channel, 'critical', 3, now)).toEqual({
      kind: 'digest',
      sendAt: new Date('2026-11-27T12:10:00.000Z'),
    });
  });
});
