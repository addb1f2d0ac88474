import { describe, expect, it } from 'vitest';
import { isoOfTimestamp } from './db';

// The device list and the session check write timestamps from PostgreSQL's text without a Date
// (lib/db withRowMapper): the result must be what drizzle's Date and toISOString gave.
describe('isoOfTimestamp', () => {
  const viaDate = (text: string) => new Date(text).toISOString();

  it('writes a UTC timestamp as Date.toISOString does, milliseconds cut, not rounded', () => {
    for (const text of [
      '2026-11-27 18:00:00.123456+00',
      '2026-11-27 18:00:00.999999+00',
      '2026-11-27 18:00:00+00',
      '2026-11-27 18:00:00.5+00',
      '2026-11-27 18:00:00.12+00',
      '2026-11-27 18:00:00.123+00',
      '0999-01-01 00:00:00.001+00',
    ]) {
      expect(isoOfTimestamp(text)).toBe(viaDate(text));
    }
    expect(isoOfTimestamp('2026-11-27 18:00:00.999999+00')).toBe('2026-11-27T18:00:00.999Z');
  });

  it('takes any other form through Date: another offset, a Date itself', () => {
    expect(isoOfTimestamp('2026-11-27 19:30:00.25+01:30')).toBe('2026-11-27T18:00:00.250Z');
    expect(isoOfTimestamp('2026-11-27 19:00:00+01')).toBe('2026-11-27T18:00:00.000Z');
    const date = new Date('2026-11-27T18:00:00.123Z');
    expect(isoOfTimestamp(date)).toBe('2026-11-27T18:00:00.123Z');
  });
});
