import { and, eq, inArray } from 'drizzle-orm';
import { deploymentJobs, deviceCommands, deviceDeployments, devices } from '../../db/schema/index';
import type { Reader } from '../../lib/db';
import { inScope } from '../../lib/scope';
import type { Scope } from '../../lib/scope';

// What an agent update reads (agent-update.service.ts): the devices asked for, within the
// caller's scope, and the update_agent commands still under way. Reads only: the devices module
// owns the device rows and the command queue (live/command-queue.queries.ts) the command rows.

export async function findTargets(db: Reader, ctx: Scope, ids: number[]) {
  return db
    .select({
      id: devices.id,
      deviceGuid: devices.deviceGuid,
      hostname: devices.hostname,
      ipAddress: devices.ipAddress,
      siteId: devices.siteId,
      status: devices.status,
      osType: devices.osType,
      agentVersion: devices.agentVersion,
    })
    .from(devices)
    .where(and(inScope(devices, ctx), inArray(devices.id, ids)));
}

/** Devices among these with an update_agent command not finished yet. */
export async function pendingUpdates(db: Reader, ids: number[]): Promise<Set<number>> {
  const rows = await db
    .select({ deviceId: deviceCommands.deviceId })
    .from(deviceCommands)
    .where(
      and(
        inArray(deviceCommands.deviceId, ids),
        eq(deviceCommands.kind, 'update_agent'),
        inArray(deviceCommands.status, ['pending', 'sent']),
      ),
    );
  // a device still waiting in an agent update's wave has no command yet, but an update on its way
  const waiting = await db
    .select({ deviceId: deviceDeployments.deviceId })
    .from(deviceDeployments)
    .innerJoin(deploymentJobs, eq(deploymentJobs.id, deviceDeployments.jobId))
    .where(
      and(
        inArray(deviceDeployments.deviceId, ids),
        eq(deploymentJobs.kind, 'agent_update'),
        inArray(deviceDeployments.status, ['pending', 'running']),
      ),
    );
  return new Set([...rows, ...waiting].flatMap((r) => (r.deviceId === null ? [] : [r.deviceId])));
}
