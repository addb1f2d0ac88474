import { describe, expect, it } from 'vitest';
import { startMinuteOf } from '@outpost/contract/window-schedule';
import { decide } from './windows';
import type { DeviceWindows } from './windows';

// docs/product/rollouts.md#maintenance-windows: whether a device of a window-only job starts now
// or waits, in its site's zone (two zones, across midnight, both DST changes).

const HOUR = 3_600_000;
const at = (text: string) => Date.parse(text);
const windows = (timeZone: string, days: number[], time: string, minutes: number): DeviceWindows => ({
  timeZone,
  windows: [{ days, startMinute: startMinuteOf(time), durationMinutes: minutes }],
});

describe('the window decision at dispatch', () => {
  it('starts a device without windows at once, without an end', () => {
    expect(decide(undefined, at('2026-01-01T00:00:00Z'), HOUR)).toEqual({ inside: true, endsAt: null });
    expect(decide({ timeZone: 'UTC', windows: [] }, 0, HOUR)).toEqual({ inside: true, endsAt: null });
  });

  it('reads a Saturday 23:00 + 3 h window across midnight in Berlin and in New York', () => {
    const berlin = windows('Europe/Berlin', [6], '23:00', 180);
    const ny = windows('America/New_York', [6], '23:00', 180);
    // Sunday 2026-01-18 00:30 UTC = 01:30 Berlin (inside) = Saturday 19:30 New York (outside)
    const instant = at('2026-01-18T00:30:00Z');
    expect(decide(berlin, instant, HOUR)).toEqual({ inside: true, endsAt: at('2026-01-18T01:00:00Z') });
    const held = decide(ny, instant, HOUR);
    expect(held).toEqual({
      inside: false,
      hold: {
        until: new Date('2026-01-18T04:00:00Z'),
        note: 'Waiting for its maintenance window (opens Sat 23:00 America/New_York)',
        expiresAt: new Date(at('2026-01-18T04:00:00Z') + HOUR),
      },
    });
  });

  it('holds until 03:00 local on the spring-forward Sunday and opens once on the fall-back Sunday', () => {
    const spring = decide(windows('Europe/Berlin', [0], '02:30', 60), at('2026-03-28T12:00:00Z'), HOUR);
    expect(spring.inside).toBe(false);
    expect(!spring.inside && spring.hold.until?.toISOString()).toBe('2026-03-29T01:00:00.000Z');
    expect(!spring.inside && spring.hold.note).toBe(
      'Waiting for its maintenance window (opens Sun 03:00 Europe/Berlin)',
    );
    const ny = windows('America/New_York', [0], '01:30', 60);
    // inside from the first 01:30 (EDT) until 02:30 EST: the second 01:30 is the same opening
    expect(decide(ny, at('2026-11-01T06:45:00Z'), HOUR)).toEqual({
      inside: true,
      endsAt: at('2026-11-01T07:30:00Z'),
    });
    const after = decide(ny, at('2026-11-01T07:30:00Z'), HOUR);
    expect(!after.inside && after.hold.until?.toISOString()).toBe('2026-11-08T06:30:00.000Z');
  });
});
