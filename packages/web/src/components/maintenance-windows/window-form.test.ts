import { describe, expect, it } from 'vitest';
import { daysText, durationText, emptyWindowForm, formToBody, nextText, windowToForm } from './window-form';

// docs/product/rollouts.md#maintenance-windows: the window dialog's form and the list's words.

describe('maintenance window form', () => {
  it('builds the body with the duration in minutes, checked by the contract', () => {
    expect(
      formToBody({ ...emptyWindowForm, name: 'Nights', hours: '1', minutes: '30' }, { site_id: 3 }),
    ).toEqual({
      body: {
        name: 'Nights',
        days: [1, 2, 3, 4, 5],
        start_time: '22:00',
        duration_minutes: 90,
        enabled: true,
        site_id: 3,
      },
    });
    expect(formToBody({ ...emptyWindowForm, name: '' }, { site_id: 3 })).toEqual({
      error: 'Name is required',
    });
    expect(formToBody({ ...emptyWindowForm, name: 'x', days: [] }, { group_id: 1 })).toEqual({
      error: 'Choose at least one day',
    });
    expect(formToBody({ ...emptyWindowForm, name: 'x', hours: '0', minutes: '10' }, { group_id: 1 })).toEqual(
      {
        error: 'A window lasts at least 15 minutes',
      },
    );
    expect(formToBody({ ...emptyWindowForm, name: 'x', hours: '25' }, { group_id: 1 })).toEqual({
      error: 'A window lasts at most 24 hours',
    });
  });

  it('reads a window back into the form', () => {
    expect(
      windowToForm({
        id: 1,
        name: 'W',
        site_id: 1,
        site_name: 'HQ',
        group_id: null,
        group_name: null,
        days: [0, 6],
        start_time: '23:00',
        duration_minutes: 195,
        enabled: false,
        timezone: 'UTC',
        next_opens_at: null,
        created_at: '2026-11-27T00:00:00Z',
      }),
    ).toEqual({ name: 'W', days: [0, 6], start_time: '23:00', hours: '3', minutes: '15', enabled: false });
  });

  it('says the days, the duration and the next opening in words', () => {
    expect(daysText([1, 2, 3, 4, 5])).toBe('Mon–Fri');
    expect(daysText([0, 1, 2, 3, 4, 5, 6])).toBe('Every day');
    expect(daysText([0, 6])).toBe('Sat, Sun');
    expect(durationText(120)).toBe('2 h');
    expect(durationText(90)).toBe('1 h 30 min');
    expect(durationText(45)).toBe('45 min');
    expect(
      nextText(
        { next_opens_at: '2026-12-01T21:00:00.000Z', timezone: 'Europe/Berlin' },
        Date.parse('2026-12-01T18:00:00Z'),
      ),
    ).toBe('Next: Tue 22:00 (in 3 h)');
    expect(nextText({ next_opens_at: null, timezone: 'UTC' }, 0)).toBeNull();
  });
});
