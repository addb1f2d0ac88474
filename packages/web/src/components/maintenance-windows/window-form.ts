import { MaintenanceWindowBody } from '@outpost/contract/maintenance-windows';
import type { MaintenanceWindow } from '@outpost/contract/maintenance-windows';
import { localWhen, untilText } from '@outpost/contract/window-schedule';

// The maintenance window dialog's form (docs/product/rollouts.md#maintenance-windows): days as
// Mon–Sun chips, a start time, a duration in hours and minutes.

export type WindowForm = {
  name: string;
  days: number[];
  start_time: string;
  hours: string;
  minutes: string;
  enabled: boolean;
};

/** Mon first, as people read a week; values are Date#getDay (0 = Sunday). */
export const DAY_CHIPS = [
  { value: 1, short: 'Mon', long: 'Monday' },
  { value: 2, short: 'Tue', long: 'Tuesday' },
  { value: 3, short: 'Wed', long: 'Wednesday' },
  { value: 4, short: 'Thu', long: 'Thursday' },
  { value: 5, short: 'Fri', long: 'Friday' },
  { value: 6, short: 'Sat', long: 'Saturday' },
  { value: 0, short: 'Sun', long: 'Sunday' },
] as const;

export const emptyWindowForm: WindowForm = {
  name: '',
  days: [1, 2, 3, 4, 5],
  start_time: '22:00',
  hours: '2',
  minutes: '0',
  enabled: true,
};

export function windowToForm(w: MaintenanceWindow): WindowForm {
  return {
    name: w.name,
    days: w.days,
    start_time: w.start_time,
    hours: String(Math.floor(w.duration_minutes / 60)),
    minutes: String(w.duration_minutes % 60),
    enabled: w.enabled,
  };
}

/** The body, checked with the contract's rules: the body or the first message. */
export function formToBody(
  form: WindowForm,
  owner: { site_id: number } | { group_id: number },
): { body: MaintenanceWindowBody } | { error: string } {
  const body = {
    name: form.name,
    days: form.days,
    start_time: form.start_time,
    duration_minutes: (Number(form.hours) || 0) * 60 + (Number(form.minutes) || 0),
    enabled: form.enabled,
    ...owner,
  };
  const parsed = MaintenanceWindowBody.safeParse(body);
  return parsed.success ? { body } : { error: parsed.error.issues[0]?.message ?? 'Invalid window' };
}

/** "Mon–Fri", "Sat, Sun", "Every day" */
export function daysText(days: readonly number[]): string {
  if (days.length === 7) {
    return 'Every day';
  }
  const ordered = DAY_CHIPS.filter((d) => days.includes(d.value));
  const weekdays = [1, 2, 3, 4, 5];
  if (ordered.length === 5 && weekdays.every((d) => days.includes(d))) {
    return 'Mon–Fri';
  }
  return ordered.map((d) => d.short).join(', ');
}

/** "2 h", "1 h 30 min", "45 min" */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const m = minutes % 60;
  return [h > 0 ? `${h} h` : '', m > 0 ? `${m} min` : ''].filter(Boolean).join(' ');
}

/** "Next: Tue 22:00 (in 3 h)" in the window's zone, or null. */
export function nextText(
  w: Pick<MaintenanceWindow, 'next_opens_at' | 'timezone'>,
  now: number,
): string | null {
  if (!w.next_opens_at || !w.timezone) {
    return null;
  }
  const at = Date.parse(w.next_opens_at);
  return `Next: ${localWhen(at, w.timezone)} (${untilText(at, now)})`;
}
