import { describe, expect, it } from 'vitest';
import { initials, relativeDay, relativeTime } from './format';

const now = Date.parse('2026-11-22T12:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('relativeTime (docs/product/devices.md#lists bands)', () => {
  it.each([
    [null, 'Never'],
    [ago(30_000), 'Just now'],
    [ago(60_000), '1 minute ago'],
    [ago(59 * 60_000), '59 minutes ago'],
    [ago(60 * 60_000), '1 hour ago'],
    [ago(23 * 3600_000), '23 hours ago'],
    [ago(49 * 3600_000), '2 days ago'],
  ])('%s → %s', (value, expected) => {
    expect(relativeTime(value, now)).toBe(expected);
  });

  const ahead = (ms: number) => new Date(now + ms).toISOString();
  it.each([
    [ahead(1000), 'Just now'], // the clocks of server and browser differ a little
    [ahead(20_000), 'in under a minute'],
    [ahead(30 * 60_000), 'in 30 minutes'],
    [ahead(3 * 3600_000), 'in 3 hours'],
    [ahead(3 * 3600_000 - 5000), 'in 3 hours'], // created a moment ago for three hours ahead
    [ahead(3 * 86_400_000), 'in 3 days'],
  ])('a future %s → %s', (value, expected) => {
    expect(relativeTime(value, now)).toBe(expected);
  });

  it('treats a timestamp without a zone as UTC', () => {
    expect(relativeTime('2026-11-22T11:30:00', now)).toBe('30 minutes ago');
  });
});

describe('relativeDay (docs/product/administration.md#admin-lists users and sites lists)', () => {
  it.each([
    [ago(3600_000), 'Today'],
    [ago(30 * 3600_000), 'Yesterday'],
    [ago(3 * 86_400_000), '3 days ago'],
    [ago(14 * 86_400_000), '2 weeks ago'],
    [ago(65 * 86_400_000), '2 months ago'],
  ])('%s → %s', (value, expected) => {
    expect(relativeDay(value, now)).toBe(expected);
  });
});

describe('initials', () => {
  it('uses the first and last name, else the e-mail initial', () => {
    expect(initials('Alex Q. Morgan', 'a@x')).toBe('AM');
    expect(initials(null, 'tech@acme.example')).toBe('T');
    expect(initials('  ', 'z@x')).toBe('Z');
  });
});
