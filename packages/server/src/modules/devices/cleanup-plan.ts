import type { CleanupBody, CleanupDevice, CleanupPlan, DuplicateSet } from '@outpost/contract/device-cleanup';
import type { Executor } from '../../lib/db';
import type { Scope } from '../../lib/scope';
import { databaseNow, duplicateCandidates, staleDevices } from './cleanup.queries';
import { findDuplicateGroups } from './duplicates';
import type { DuplicateGroup } from './duplicates';

// The agent cleanup's plan (docs/product/administration.md#agent-cleanup; SECURITY.md R2-4): the same for the preview
// and for the cleanup itself, which removes only what the plan still removes when it runs.

type Candidate = Awaited<ReturnType<typeof duplicateCandidates>>[number];

export type LoadedPlan = {
  plan: CleanupPlan;
  /** the site of each device the plan removes (the audit entries name them) */
  siteOf: Map<number, number | null>;
  /** the database's time when the plan was read */
  plannedAt: Date;
};

function toSet(group: DuplicateGroup<Candidate>): DuplicateSet {
  return {
    kept_device_id: group.kept.id,
    needs_review: group.needsReview,
    members: group.members.map(({ device: d, outcome, reason }) => ({
      id: d.id,
      device_guid: d.deviceGuid,
      hostname: d.hostname,
      serial_number: d.serialNumber,
      status: d.status,
      last_seen: d.lastSeen?.toISOString() ?? null,
      created_at: d.createdAt.toISOString(),
      outcome,
      reason,
    })),
  };
}

/**
 * Stale devices first (offline longer than the threshold), then duplicate sets among the devices
 * that remain, so a record removed as stale is never the one a set keeps.
 */
export async function loadCleanupPlan(db: Executor, ctx: Scope, body: CleanupBody): Promise<LoadedPlan> {
  const plannedAt = await databaseNow(db);
  const removed = new Map<number, CleanupDevice>();
  const siteOf = new Map<number, number | null>();
  const days = body.offline_days ?? null;
  if (days !== null) {
    for (const d of await staleDevices(db, ctx, days)) {
      removed.set(d.id, {
        id: d.id,
        device_guid: d.deviceGuid,
        hostname: d.hostname,
        reason: 'stale',
        kept_device_id: null,
      });
      siteOf.set(d.id, d.siteId);
    }
  }
  const sets: DuplicateSet[] = [];
  if (body.remove_duplicates) {
    const candidates = (await duplicateCandidates(db, ctx)).filter((c) => !removed.has(c.id));
    for (const group of findDuplicateGroups(candidates)) {
      sets.push(toSet(group));
      for (const { device: d, outcome } of group.members) {
        if (outcome === 'remove') {
          removed.set(d.id, {
            id: d.id,
            device_guid: d.deviceGuid,
            hostname: d.hostname,
            reason: 'duplicate',
            kept_device_id: group.kept.id,
          });
          siteOf.set(d.id, d.siteId);
        }
      }
    }
  }
  const devices = [...removed.values()].sort((a, b) => a.id - b.id);
  return { plan: { devices, duplicate_sets: sets }, siteOf, plannedAt };
}
