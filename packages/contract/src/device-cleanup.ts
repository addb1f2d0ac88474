import { z } from 'zod';
import { DeviceStatus } from './devices';
import { Id } from './input';
import { cleanupMessages } from './messages';

// Agent cleanup (docs/product/administration.md#agent-cleanup; the rules for duplicates: SECURITY.md R2-4). The
// administrator previews what a cleanup would do (which record of each duplicate set is kept and
// why), then runs it naming the devices they confirmed.

/** docs/product/administration.md, #agent-cleanup — threshold 1 to 365 days (default 30), and/or remove duplicates. */
export const CLEANUP_DEFAULT_DAYS = 30;
export const CLEANUP_MIN_DAYS = 1;
export const CLEANUP_MAX_DAYS = 365;
/** The most devices one cleanup may name as confirmed. */
export const CLEANUP_MAX_CONFIRMED = 10_000;

export const CleanupBody = z.object({
  offline_days: z.coerce
    .number()
    .int()
    .min(CLEANUP_MIN_DAYS, 'offline_days must be between 1 and 365')
    .max(CLEANUP_MAX_DAYS, 'offline_days must be between 1 and 365')
    .nullable()
    .optional(),
  remove_duplicates: z.boolean().optional(),
  /**
   * The devices the administrator confirmed from the preview: only these are removed, and only
   * while the cleanup's rules still remove them. Omitted, the cleanup removes what its rules find.
   */
  device_ids: z
    .array(Id)
    .max(CLEANUP_MAX_CONFIRMED, cleanupMessages.tooManyConfirmed(CLEANUP_MAX_CONFIRMED))
    .optional(),
});
export type CleanupBody = z.infer<typeof CleanupBody>;

export const CLEANUP_REASONS = ['stale', 'duplicate'] as const;
export const CleanupDevice = z.object({
  id: z.number().int(),
  device_guid: z.string(),
  hostname: z.string().nullable(),
  reason: z.enum(CLEANUP_REASONS),
  /** for a duplicate: the device that is kept */
  kept_device_id: z.number().int().nullable(),
});
export type CleanupDevice = z.infer<typeof CleanupDevice>;

/**
 * What happens to one record of a duplicate set, and why (cleanupMessages.reason words it):
 * keep    first_proven: enrolled first among the records whose agent has connected;
 *         first_enrolled: enrolled first, no record's agent has connected yet;
 * remove  duplicate: offline, and its agent has not connected since the kept record's last did;
 * review  online: connected now; proved_later: its agent connected after the kept record's last
 *         did; set_in_review: another record of the set needs review, so nothing is removed.
 */
export const DUPLICATE_OUTCOMES = ['keep', 'remove', 'review'] as const;
export const DUPLICATE_REASONS = [
  'first_proven',
  'first_enrolled',
  'duplicate',
  'online',
  'proved_later',
  'set_in_review',
] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

export const DuplicateSetMember = z.object({
  id: z.number().int(),
  device_guid: z.string(),
  hostname: z.string().nullable(),
  serial_number: z.string().nullable(),
  status: DeviceStatus,
  /** the last message over the agent's authenticated socket; null: it never connected */
  last_seen: z.string().nullable(),
  /** when the record was enrolled */
  created_at: z.string(),
  outcome: z.enum(DUPLICATE_OUTCOMES),
  reason: z.enum(DUPLICATE_REASONS),
});
export type DuplicateSetMember = z.infer<typeof DuplicateSetMember>;

/** Records that look like one machine; a set in review keeps every record. */
export const DuplicateSet = z.object({
  kept_device_id: z.number().int(),
  needs_review: z.boolean(),
  members: z.array(DuplicateSetMember),
});
export type DuplicateSet = z.infer<typeof DuplicateSet>;

/** The preview: what a cleanup with these options would remove, and every duplicate set. */
export const CleanupPlan = z.object({
  devices: z.array(CleanupDevice),
  duplicate_sets: z.array(DuplicateSet),
});
export type CleanupPlan = z.infer<typeof CleanupPlan>;

export const CleanupResult = z.object({
  removed: z.number().int(),
  devices: z.array(CleanupDevice),
  /** the duplicate sets left for the administrator to review (nothing of them removed) */
  review_sets: z.array(DuplicateSet),
});
export type CleanupResult = z.infer<typeof CleanupResult>;
