import type { FastifyBaseLogger } from 'fastify';
import type { CheckResultsMessage, ChecksMessage } from '@outpost/contract/agent-protocol';
import type { CheckState, Severity } from '@outpost/contract/checks';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import type { Bus } from '../../live/bus';
import type { DeviceRef } from '../../live/device-state';
import { checksMessage, effectiveChecks } from './check-set';
import {
  checksOfDevices,
  findDevice,
  hasNarrowPolicies,
  lockStates,
  upsertStates,
} from './monitoring.queries';
import type { CheckStateRow } from './monitoring.queries';

// What the agents get and give (docs/product/monitoring.md#checks): each device's check set (the
// `checks` message), told again through `agent.checks` when it may have changed, and the check
// states the agents report, stored with the changes handed to the alerts (onCheckChanges).

/** A check whose state on a device really changed (or was reported for the first time). */
export type CheckChange = {
  tenantId: number;
  deviceId: number;
  siteId: number | null;
  deviceGuid: string;
  hostname: string | null;
  checkId: number;
  checkName: string;
  policyId: number;
  severity: Severity;
  state: CheckState;
  /** null: the first state reported for this check on this device */
  previousState: CheckState | null;
  output: string | null;
  at: Date;
};

export type OnCheckChanges = (tx: Executor, changes: CheckChange[]) => Promise<void>;

/** How many device ids one `agent.checks` message carries. */
export const CHECKS_PUBLISH_BATCH = 1000;

export type CheckDistributionDeps = {
  db: Db;
  bus: Pick<Bus, 'publish'>;
  onCheckChanges: OnCheckChanges;
  log?: Pick<FastifyBaseLogger, 'error'>;
  now?: () => Date;
};

/** A reported time, or now when it does not parse or lies in the future. */
function reportedAt(value: string, now: Date): Date {
  const at = new Date(value);
  return Number.isNaN(at.getTime()) || at > now ? now : at;
}

export function createCheckDistribution({
  db,
  bus,
  onCheckChanges,
  log,
  now = () => new Date(),
}: CheckDistributionDeps) {
  /** Tells the instances holding these devices' sockets to send them their set again. */
  async function publish(deviceIds: Iterable<number>): Promise<void> {
    const ids = [...new Set(deviceIds)];
    for (let i = 0; i < ids.length; i += CHECKS_PUBLISH_BATCH) {
      await bus.publish('agent.checks', { deviceIds: ids.slice(i, i + CHECKS_PUBLISH_BATCH) });
    }
  }

  /** The checks a device runs now, with their policies' names (one statement). */
  async function deviceChecks(ex: Pick<Db, 'select'>, deviceId: number) {
    return effectiveChecks(await checksOfDevices(ex, [deviceId]));
  }

  return {
    publish,
    deviceChecks,

    /** The device's `checks` message (the agent hub, after the welcome and on `agent.checks`). */
    async checksFor(device: DeviceRef): Promise<ChecksMessage> {
      return checksMessage((await deviceChecks(db, device.id)).map((r) => r.check));
    },

    /**
     * Stores reported states of the checks the device runs (others are ignored): `since` moves
     * only when the state changes, a result older than the stored one is ignored (a resent
     * message changes nothing), and the real changes go to onCheckChanges in the same transaction.
     */
    async checkResults(device: DeviceRef, message: CheckResultsMessage): Promise<void> {
      const received = now();
      await db.transaction(async (tx) => {
        const facts = await findDevice(tx, device.id);
        if (!facts) {
          return;
        }
        const running = new Map((await deviceChecks(tx, device.id)).map((r) => [r.check.id, r.check]));
        const results = new Map(
          message.results.filter((r) => running.has(r.checkId)).map((r) => [r.checkId, r]),
        );
        const stored = new Map(
          (await lockStates(tx, device.id, [...results.keys()])).map((s) => [s.checkId, s]),
        );
        const rows: CheckStateRow[] = [];
        const changes: CheckChange[] = [];
        for (const result of results.values()) {
          const check = running.get(result.checkId);
          const before = stored.get(result.checkId);
          const at = reportedAt(result.checkedAt, received);
          if (!check || (before && at <= before.checkedAt)) {
            continue;
          }
          const changed = !before || before.state !== result.state;
          const output = result.output ?? null;
          rows.push({
            deviceId: device.id,
            checkId: check.id,
            tenantId: facts.tenantId,
            state: result.state,
            output,
            checkedAt: at,
            since: changed || !before ? at : before.since,
          });
          if (changed) {
            changes.push({
              tenantId: facts.tenantId,
              deviceId: facts.id,
              siteId: facts.siteId,
              deviceGuid: facts.deviceGuid,
              hostname: facts.hostname,
              checkId: check.id,
              checkName: check.name,
              policyId: check.policyId,
              severity: check.severity,
              state: result.state,
              previousState: before?.state ?? null,
              output,
              at,
            });
          }
        }
        await upsertStates(tx, rows);
        if (changes.length > 0) {
          await onCheckChanges(tx, changes);
        }
      });
    },

    /**
     * Devices changed (their site, their tags or fields and so their dynamic groups): their sets
     * may differ now. Only a tenant with a site- or group-targeted policy can see a difference;
     * each hub compares the revision and sends only a set that changed. Never throws.
     */
    devicesChanged: (tenantId: number, deviceIds: number[]): Promise<void> =>
      (async () => {
        if (deviceIds.length > 0 && (await hasNarrowPolicies(db, tenantId))) {
          await publish(deviceIds);
        }
      })().catch((err: unknown) => {
        log?.error({ err, tenantId }, 'check set refresh failed');
      }),

    /**
     * Devices joined or left a group (or the group was deleted, and a policy targeting it with
     * it): their sets may differ, whatever policies remain. Never throws.
     */
    groupMembersChanged: (tenantId: number, deviceIds: number[]): Promise<void> =>
      publish(deviceIds).catch((err: unknown) => {
        log?.error({ err, tenantId }, 'check set refresh failed');
      }),
  };
}

export type CheckDistribution = ReturnType<typeof createCheckDistribution>;
