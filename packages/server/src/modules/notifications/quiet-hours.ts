import type { DigestSettings, QuietHours } from '@outpost/contract/notification-channels';

// Quiet hours and digests (docs/product/monitoring.md#quiet-hours-and-digests): whether an alert
// message goes out now, or waits folded into a digest, and until when.

const minutesOf = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** The local time of day in the zone, in minutes and seconds since midnight. */
function localClock(now: number, timeZone: string): { minutes: number; seconds: number } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(new Date(now));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { minutes: get('hour') * 60 + get('minute'), seconds: get('second') };
}

/**
 * Whether `now` lies in the quiet hours (start included, end excluded; start after end spans
 * midnight) and, if so, when they end. A day with a clock change may end them an hour off.
 */
export function quietUntil(q: QuietHours, now: number): Date | null {
  const { minutes, seconds } = localClock(now, q.time_zone);
  const start = minutesOf(q.start);
  const end = minutesOf(q.end);
  const quiet = start < end ? minutes >= start && minutes < end : minutes >= start || minutes < end;
  if (!quiet) {
    return null;
  }
  const left = (end - minutes + 1440) % 1440;
  return new Date(now + left * 60_000 - seconds * 1000 - (now % 1000));
}

export type Plan = { kind: 'now' } | { kind: 'digest'; sendAt: Date };

/**
 * What becomes of an alert message to a channel: critical ones go out through quiet hours; past
 * the flood limit (`recent` messages sent on their own within the digest's minutes) a message
 * joins the channel's digest, sent when its window ends.
 */
export function planAlertMessage(
  channel: { quietHours: QuietHours | null; digest: DigestSettings | null },
  severity: string | undefined,
  recent: number,
  now: number,
): Plan {
  const quietEnd = channel.quietHours && severity !== 'critical' ? quietUntil(channel.quietHours, now) : null;
  if (quietEnd) {
    return { kind: 'digest', sendAt: quietEnd };
  }
  if (channel.digest && recent >= channel.digest.max_alerts) {
    return { kind: 'digest', sendAt: new Date(now + channel.digest.minutes * 60_000) };
  }
  return { kind: 'now' };
}
