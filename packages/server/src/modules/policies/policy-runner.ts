import type { FastifyBaseLogger } from 'fastify';
import { isTimeZone, previousOccurrence } from '@outpost/contract/policy-schedule';
import type { Db } from '../../db/client';
import type { DeploymentsService } from '../deployments/deployments.service';
import type { PolicyJobDevice } from '../deployments/policy-jobs';
import {
  claimDevices,
  claimOccurrence,
  devicesRun,
  enabledPolicies,
  packageVersionOf,
  recordDeviceRuns,
  recordOccurrence,
  targetMembers,
  targetZones,
} from './policies.queries';
import type { MemberRow, PolicyRow } from './policies.queries';

// One pass of the policies (docs/product/device-sets.md#automation-policies): each enabled
// scheduled policy runs its due occurrence in each time zone its target's devices are in, and
// each "when a device joins" policy deploys to the devices that entered its target since it was
// enabled. Every run is claimed with a unique row in the same transaction as its jobs, so two
// instances never run the same occurrence or the same device twice
// (docs/decisions/2026-11-26-policy-schedules.md).

/** Devices without a site, or whose site has no (known) time zone, follow UTC. */
export const DEFAULT_ZONE = 'UTC';
/**
 * An occurrence missed (the server was down) runs once, late, while it is at most this old;
 * older ones are skipped and the next occurs as usual.
 */
export const MISSED_GRACE_MS = 6 * 60 * 60 * 1000;

export const zoneOf = (zone: string | null): string => (zone && isTimeZone(zone) ? zone : DEFAULT_ZONE);

export type PolicyRunnerDeps = {
  db: Db;
  deployments: Pick<DeploymentsService, 'createForPolicy' | 'kick'>;
  log: FastifyBaseLogger;
};

export type PolicyRunner = {
  /** one pass at `now` (ms); resolves with the number of jobs created */
  pass(now: number): Promise<number>;
};

const asJobDevice = (m: MemberRow): PolicyJobDevice => ({
  id: m.id,
  siteId: m.siteId,
  deviceGuid: m.deviceGuid,
  hostname: m.hostname,
  ipAddress: m.ipAddress,
  osType: m.osType,
  architecture: m.architecture,
});

function localLabel(at: number, zone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(at));
}

/** The target's devices by time zone. */
export function byZone(members: MemberRow[]): Map<string, MemberRow[]> {
  const out = new Map<string, MemberRow[]>();
  for (const m of members) {
    const zone = zoneOf(m.zone);
    out.set(zone, [...(out.get(zone) ?? []), m]);
  }
  return out;
}

/** The occurrence due now in a zone, or null (none since the policy became active, or too late). */
export function dueOccurrence(policy: PolicyRow, zone: string, now: number): number | null {
  if (!policy.schedule || !policy.activeSince) {
    return null;
  }
  const at = previousOccurrence(policy.schedule, zone, now);
  if (at === null || at <= policy.activeSince.getTime() || now - at > MISSED_GRACE_MS) {
    return null;
  }
  return at;
}

export function createPolicyRunner({ db, deployments, log }: PolicyRunnerDeps): PolicyRunner {
  async function runScheduled(policy: PolicyRow, now: number): Promise<number> {
    if (policy.packageId === null) {
      return 0;
    }
    // the zones first (one small query): the members are read only when one is due
    const due = [...new Set((await targetZones(db, policy)).map(zoneOf))].flatMap((zone) => {
      const at = dueOccurrence(policy, zone, now);
      return at === null ? [] : [{ zone, at }];
    });
    if (due.length === 0) {
      return 0;
    }
    const members = byZone(await targetMembers(db, policy));
    let jobs = 0;
    for (const { zone, at } of due) {
      jobs += await runOccurrence(policy, zone, at, members.get(zone) ?? []);
    }
    return jobs;
  }

  /** One occurrence in one zone: claimed, then its job(s), in one transaction. */
  function runOccurrence(policy: PolicyRow, zone: string, at: number, members: MemberRow[]): Promise<number> {
    const occurrenceAt = new Date(at);
    return db.transaction(async (tx) => {
      const run = { policyId: policy.id, tenantId: policy.tenantId, zone, occurrenceAt };
      if (!(await claimOccurrence(tx, run))) {
        return 0;
      }
      const result = await deployments.createForPolicy(tx, {
        tenantId: policy.tenantId,
        policyId: policy.id,
        policyName: policy.name,
        packageId: policy.packageId ?? 0,
        devices: members.map(asJobDevice),
        jobName: `${policy.name} (${localLabel(at, zone)} ${zone})`,
      });
      const devices = result.jobs.reduce((n, j) => n + j.deviceIds.length, 0);
      await recordOccurrence(tx, { ...run, devices });
      return result.jobs.length;
    });
  }

  async function runJoins(policy: PolicyRow): Promise<number> {
    const since = policy.activeSince?.getTime();
    if (policy.packageId === null || since === undefined) {
      return 0;
    }
    const version = await packageVersionOf(db, policy, policy.packageId);
    if (version === null) {
      return 0;
    }
    const done = await devicesRun(db, policy.id, version);
    const fresh = (await targetMembers(db, policy, new Date(since))).filter((m) => !done.has(m.id));
    if (fresh.length === 0) {
      return 0;
    }
    return db.transaction(async (tx) => {
      const claimed = new Set(
        await claimDevices(tx, {
          policyId: policy.id,
          tenantId: policy.tenantId,
          packageVersion: version,
          deviceIds: fresh.map((m) => m.id),
        }),
      );
      if (claimed.size === 0) {
        return 0;
      }
      const result = await deployments.createForPolicy(tx, {
        tenantId: policy.tenantId,
        policyId: policy.id,
        policyName: policy.name,
        packageId: policy.packageId ?? 0,
        devices: fresh.filter((m) => claimed.has(m.id)).map(asJobDevice),
        jobName: `${policy.name} (joined devices)`,
      });
      await recordDeviceRuns(tx, { policyId: policy.id, packageVersion: version, jobs: result.jobs });
      return result.jobs.length;
    });
  }

  /** One policy's failure is logged and leaves the others running. */
  async function each(rows: PolicyRow[], run: (p: PolicyRow) => Promise<number>): Promise<number> {
    let jobs = 0;
    for (const policy of rows) {
      try {
        jobs += await run(policy);
      } catch (err) {
        log.error({ err, policyId: policy.id }, 'policy run failed');
      }
    }
    return jobs;
  }

  return {
    async pass(now) {
      const jobs =
        (await each(await enabledPolicies(db, 'schedule'), (p) => runScheduled(p, now))) +
        (await each(await enabledPolicies(db, 'join'), runJoins));
      if (jobs > 0) {
        deployments.kick();
      }
      return jobs;
    },
  };
}
