import type { FastifyBaseLogger } from 'fastify';
import { isTimeDependent } from '@outpost/contract/groups';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import { dynamicGroups, materialiseGroup, reevaluateDevices } from './membership.queries';
import type { DynamicGroup } from './membership.queries';

// Keeping dynamic groups' members true (docs/product/device-sets.md#groups "Membership",
// docs/decisions/2026-11-26-group-membership.md): a whole group is evaluated when it is created
// or its filter changes; the devices a change touches are re-evaluated against every dynamic
// group of their tenant (inventory, enrolment, tags, custom fields); conditions that turn true
// with time or presence alone (status, last seen) are re-evaluated by a periodic sweep.

/** How often the sweep re-evaluates groups with status or last-seen conditions. */
export const MEMBERSHIP_SWEEP_MS = 5 * 60_000;

/** What other modules are handed (never this module itself): "these devices changed". */
export type DevicesChanged = (tenantId: number, deviceIds: number[]) => Promise<void>;

export function createGroupMembership({ db, log }: { db: Db; log?: Pick<FastifyBaseLogger, 'error'> }) {
  const membership = {
    /** A dynamic group's members, evaluated in full (inside the caller's transaction). */
    materialise: (ex: Executor, group: DynamicGroup) => materialiseGroup(ex, group),

    /**
     * Some devices of a tenant changed: their membership of every dynamic group of the tenant is
     * evaluated again, in one statement. Not authorised: called by the server on a change it made.
     */
    devicesChanged: async (tenantId: number, deviceIds: number[]): Promise<void> => {
      if (deviceIds.length === 0) {
        return;
      }
      const groups = await dynamicGroups(db, tenantId);
      await reevaluateDevices(db, tenantId, groups, [...new Set(deviceIds)]);
    },

    /** The same, never throwing: for callers whose own work must not fail because of groups. */
    notify: (tenantId: number, deviceIds: number[]): Promise<void> =>
      membership.devicesChanged(tenantId, deviceIds).catch((err: unknown) => {
        log?.error({ err, tenantId }, 'group membership update failed');
      }),

    /** Every dynamic group of a tenant evaluated in full (a tag or field removed, a site deleted). */
    async tenantChanged(tenantId: number): Promise<void> {
      for (const group of await dynamicGroups(db, tenantId)) {
        await db.transaction((tx) => materialiseGroup(tx, group));
      }
    },

    /**
     * A custom field's definition changed (its default): the dynamic groups with a condition on
     * it are evaluated in full, since every device without a value now shows another one. Never
     * throws (the definition is saved either way).
     */
    fieldChanged: (tenantId: number, key: string): Promise<void> =>
      (async () => {
        const groups = (await dynamicGroups(db, tenantId)).filter((g) =>
          g.filter.conditions.some((c) => c.field === 'custom_field' && c.key === key),
        );
        for (const group of groups) {
          await db.transaction((tx) => materialiseGroup(tx, group));
        }
      })().catch((err: unknown) => {
        log?.error({ err, tenantId, key }, 'group membership update failed');
      }),

    /** The periodic sweep: groups whose conditions change with time or presence. Returns how many. */
    async sweep(): Promise<number> {
      const groups = (await dynamicGroups(db)).filter((g) => isTimeDependent(g.filter));
      for (const group of groups) {
        await db.transaction((tx) => materialiseGroup(tx, group));
      }
      return groups.length;
    },

    /** Starts the sweep timer; returns its stop (app.ts calls it when the server closes). */
    startSweep(everyMs = MEMBERSHIP_SWEEP_MS): () => void {
      const timer = setInterval(() => {
        membership.sweep().catch((err: unknown) => log?.error({ err }, 'group membership sweep failed'));
      }, everyMs);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
  return membership;
}

export type GroupMembership = ReturnType<typeof createGroupMembership>;
