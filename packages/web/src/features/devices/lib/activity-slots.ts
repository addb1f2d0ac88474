import type { ChartSession, ChartSlot } from '@outpost/contract/activity';

// The device Activity tab's pure parts (docs/product/activity.md#device-activity-tab, #fields, #limits): which
// hourly slots are past, current or future, where a session sits inside its hour, and the
// session id shown as its first 8 characters.

export const SLOT_MINUTES = 60;
export const SESSION_ID_CHARS = 8;

export type SlotState = 'past' | 'current' | 'future';

const slotStart = (slot: Pick<ChartSlot, 'hour_slot'>) => {
  const s = slot.hour_slot;
  // A timestamp without a zone from the server is UTC (docs/product/devices.md#lists).
  return new Date(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`).getTime();
};

/**
 * The server's current slot is current (its clock decides); otherwise a slot that starts after
 * now is future, one holding now is current, the rest are past.
 */
export function slotState(slot: Pick<ChartSlot, 'hour_slot' | 'is_current'>, now: number): SlotState {
  if (slot.is_current) {
    return 'current';
  }
  const start = slotStart(slot);
  if (start > now) {
    return 'future';
  }
  return now < start + SLOT_MINUTES * 60_000 ? 'current' : 'past';
}

/** Minutes of the slot already passed (0..60): the rest of the current hour is still future. */
export function minutesElapsed(slot: Pick<ChartSlot, 'hour_slot'>, now: number): number {
  const minutes = (now - slotStart(slot)) / 60_000;
  return Math.min(SLOT_MINUTES, Math.max(0, minutes));
}

/** Where a session sits in its hour, as percentages of the slot's width (clamped to the slot). */
export function sessionPosition(session: Pick<ChartSession, 'start_offset' | 'duration'>) {
  const start = Math.min(SLOT_MINUTES, Math.max(0, session.start_offset));
  const end = Math.min(SLOT_MINUTES, Math.max(start, session.start_offset + session.duration));
  return { left: (start / SLOT_MINUTES) * 100, width: ((end - start) / SLOT_MINUTES) * 100 };
}

/** The slot's start as a local clock time, e.g. '14:00'. */
export function slotLabel(slot: Pick<ChartSlot, 'hour_slot'>): string {
  return new Date(slotStart(slot)).toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  });
}

/** The session id as shown: its first 8 characters ('—' when there is none). */
export const shortSessionId = (id: string | null | undefined) => (id ? id.slice(0, SESSION_ID_CHARS) : '—');

/** Minutes as '45 min' or '1 h 5 min'. */
export function formatMinutes(minutes: number): string {
  const m = Math.round(minutes);
  if (m < 60) {
    return `${m} min`;
  }
  const h = Math.floor(m / 60);
  const rest = m % 60;
  return rest ? `${h} h ${rest} min` : `${h} h`;
}
