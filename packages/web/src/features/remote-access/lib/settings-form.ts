import { REMOTE_LIMITS, RemoteAccessSettings } from '@outpost/contract/remote-access';
import type { RemoteAccessUpdate } from '@outpost/contract/remote-access';

// The Remote access settings form (docs/product/remote-access.md#settings): numbers are edited in
// the units people think in (minutes, KiB/s, MiB) and checked against the contract's limits.

const KIB = 1024;
const MIB = 1024 * 1024;

export type SettingsForm = Omit<
  RemoteAccessSettings,
  'idle_timeout_minutes' | 'max_session_minutes' | 'max_bytes_per_second' | 'max_file_bytes'
> & {
  idle_timeout_minutes: string;
  max_session_minutes: string;
  /** KiB per second */
  rate_kib: string;
  /** MiB */
  file_mib: string;
};

export type FormErrors = Partial<Record<keyof SettingsForm, string>>;

export function toForm(s: RemoteAccessSettings): SettingsForm {
  return {
    terminal_enabled: s.terminal_enabled,
    files_enabled: s.files_enabled,
    allowed_roles: s.allowed_roles,
    consent_required: s.consent_required,
    show_banner: s.show_banner,
    idle_timeout_minutes: String(s.idle_timeout_minutes),
    max_session_minutes: String(s.max_session_minutes),
    rate_kib: String(Math.round(s.max_bytes_per_second / KIB)),
    file_mib: String(Math.round(s.max_file_bytes / MIB)),
  };
}

const whole = (v: string) => (/^\d+$/.test(v.trim()) ? Number(v) : NaN);

function inRange(v: number, min: number, max: number, unit: string): string | undefined {
  if (!Number.isInteger(v)) {
    return 'Enter a whole number';
  }
  return v < min || v > max ? `Between ${min} and ${max} ${unit}` : undefined;
}

/** The update to send, or the errors to show. */
export function fromForm(f: SettingsForm): { update: RemoteAccessUpdate } | { errors: FormErrors } {
  const idle = whole(f.idle_timeout_minutes);
  const session = whole(f.max_session_minutes);
  const rate = whole(f.rate_kib);
  const file = whole(f.file_mib);
  const errors: FormErrors = {
    idle_timeout_minutes: inRange(
      idle,
      REMOTE_LIMITS.idleMinutesMin,
      REMOTE_LIMITS.idleMinutesMax,
      'minutes',
    ),
    max_session_minutes: inRange(
      session,
      REMOTE_LIMITS.sessionMinutesMin,
      REMOTE_LIMITS.sessionMinutesMax,
      'minutes',
    ),
    rate_kib: inRange(rate, REMOTE_LIMITS.rateMin / KIB, REMOTE_LIMITS.rateMax / KIB, 'KiB/s'),
    file_mib: inRange(file, REMOTE_LIMITS.fileBytesMin / MIB, REMOTE_LIMITS.fileBytesMax / MIB, 'MiB'),
    allowed_roles: f.allowed_roles.length === 0 ? 'Choose at least one role' : undefined,
  };
  const found = Object.fromEntries(Object.entries(errors).filter(([, v]) => v)) as FormErrors;
  if (Object.keys(found).length > 0) {
    return { errors: found };
  }
  const update = RemoteAccessSettings.parse({
    terminal_enabled: f.terminal_enabled,
    files_enabled: f.files_enabled,
    allowed_roles: f.allowed_roles,
    consent_required: f.consent_required,
    show_banner: f.show_banner,
    idle_timeout_minutes: idle,
    max_session_minutes: session,
    max_bytes_per_second: rate * KIB,
    max_file_bytes: file * MIB,
  });
  return { update };
}
