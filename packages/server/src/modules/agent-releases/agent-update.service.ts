import type { UpdateAgentsBody, UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import {
  UPDATE_AGENT_EXPIRY_MS,
  compareVersions,
  releaseMessages,
  targetVersionFor,
} from '@outpost/contract/agent-releases';
import type { AgentBuild } from '@outpost/contract/agent-protocol';
import { isDeviceActionable, osTypeLabel } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { conflict, notFound } from '../../lib/errors';
import type { CommandQueue } from '../../live/command-queue';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { findTargets, pendingUpdates } from './agent-update.queries';
import type { ReleaseStore } from './release-store';

// Agent upgrades: an administrator asks connected agents to update themselves to the
// published executable of their OS. Each becomes an update_agent command (the database is the
// queue, docs/product/agent-protocol.md#commands) with an audit entry; the agent downloads, verifies and swaps, and
// answers once the new version has connected (or why it did not).

export type AgentUpdateDeps = {
  db: Db;
  releases: ReleaseStore;
  commandQueue: Pick<CommandQueue, 'queueCommand' | 'dispatch'>;
};

export function createAgentUpdateService({ db, releases, commandQueue }: AgentUpdateDeps) {
  return {
    async update(ctx: RequestContext, body: UpdateAgentsBody): Promise<UpdateAgentsResponse> {
      requireAdmin(ctx);
      const ids = [...new Set(body.device_ids)];
      const targets = await findTargets(db, ctx, ids);
      const found = new Set(targets.map((t) => t.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw notFound(deviceMessages.devicesNotFound(missing), 'DEVICE_NOT_FOUND');
      }
      const published = await releases.list();
      const hasRelease = (os: string | null) => targetVersionFor(os, published) !== null;
      if (!targets.some((t) => hasRelease(t.osType))) {
        throw conflict(releaseMessages.noneForDevices, 'NO_AGENT_RELEASE');
      }
      const pending = await pendingUpdates(db, ids);
      const skipped: UpdateAgentsResponse['skipped'] = [];
      const chosen: { device: (typeof targets)[number]; to: string; builds: AgentBuild[] }[] = [];
      for (const device of targets) {
        const skip = (reason: string) =>
          skipped.push({ device_id: device.id, hostname: device.hostname, reason });
        const to = targetVersionFor(device.osType, published);
        const current = device.agentVersion;
        const order = current && to ? compareVersions(current, to) : null;
        if (!to) {
          skip(releaseMessages.skippedNoRelease(osTypeLabel(device.osType)));
        } else if (order === 0) {
          skip(releaseMessages.skippedCurrent(to));
        } else if (order !== null && order > 0) {
          skip(releaseMessages.skippedNewer(current ?? '', to));
        } else if (!isDeviceActionable(device.status)) {
          skip(releaseMessages.skippedOffline);
        } else if (pending.has(device.id)) {
          skip(releaseMessages.skippedPending);
        } else {
          const builds = published
            .filter((r) => r.os_type === device.osType?.toLowerCase())
            .map((r) => ({
              platform: r.platform,
              version: r.version,
              sha256: r.sha256,
              size: r.size,
              url: r.url,
              ...(r.compressed?.br && { br: { url: `${r.url}?encoding=br`, size: r.compressed.br.size } }),
              ...(r.compressed?.xz &&
                r.os_type !== 'windows' && {
                  xz: { url: `${r.url}?encoding=xz`, size: r.compressed.xz.size },
                }),
              ...(r.signer_sha256 && { signer_sha256: r.signer_sha256 }),
            }));
          chosen.push({ device, to, builds });
        }
      }
      const updates = await db.transaction(async (tx) => {
        const out: UpdateAgentsResponse['updates'] = [];
        for (const { device, to, builds } of chosen) {
          const commandId = await commandQueue.queueCommand(tx, {
            tenantId: ctx.tenantId,
            deviceId: device.id,
            command: { kind: 'update_agent', version: to, builds },
            createdBy: ctx.userId,
            expiresInMs: UPDATE_AGENT_EXPIRY_MS,
          });
          await writeAudit(tx, ctx, {
            action: 'Update Agent',
            resourceType: 'device',
            resourceId: device.id,
            details: `Agent update to ${to} requested for ${device.hostname ?? device.deviceGuid} (running ${device.agentVersion ?? 'an unknown version'})`,
            oldValues: { agent_version: device.agentVersion },
            newValues: { agent_version: to, command_id: commandId },
            siteIds: [device.siteId],
          });
          out.push({ device_id: device.id, command_id: commandId, from: device.agentVersion, to });
        }
        return out;
      });
      await commandQueue.dispatch(updates.map((u) => u.device_id));
      return { queued: updates.length, updates, skipped };
    },
  };
}
