import { describe, expect, it } from 'vitest';
import { windowWaitEvent } from './window-wait';

// docs/product/rollouts.md#maintenance-windows: the job's timeline shows devices waiting for their window.

const waiting = (until: string, note: string) => ({
  hold: 'window' as const,
  hold_until: until,
  hold_note: note,
});

describe('windowWaitEvent', () => {
  it('is absent while no device waits for its window', () => {
    expect(windowWaitEvent([])).toBeNull();
    expect(
      windowWaitEvent([{ hold: 'wave', hold_until: null, hold_note: 'Waiting for wave 2' }, { hold: null }]),
    ).toBeNull();
  });

  it('says when the soonest window opens and how many devices wait', () => {
    const event = windowWaitEvent([
      waiting(
        '2026-12-01T03:00:00.000Z',
        'Waiting for its maintenance window (opens Mon 22:00 America/New_York)',
      ),
      waiting(
        '2026-11-30T21:00:00.000Z',
        'Waiting for its maintenance window (opens Mon 22:00 Europe/London)',
      ),
      { hold: null, hold_until: null, hold_note: null },
    ]);
    expect(event).toEqual({
      key: 'window-wait',
      label: 'Waiting for window: opens Mon 22:00 Europe/London (2 devices)',
      at: '2026-11-30T21:00:00.000Z',
      tone: 'warn',
    });
  });

  it('says so without an opening when the note has none', () => {
    expect(windowWaitEvent([{ hold: 'window', hold_until: null, hold_note: null }])?.label).toBe(
      'Waiting for window (1 device)',
    );
  });
});
