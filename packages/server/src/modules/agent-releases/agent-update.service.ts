import type { AgentUpdateTargets } from '@outpost/contract/agent-protocol';
import type { AgentRelease, UpdateAgentsBody, UpdateAgentsResponse } from '@outpost/contract/agent-releases';
import {
  UPDATE_AGENT_EXPIRY_MS,
  compareVersions,
  releaseMessages,
  targetVersionFor,
} from '@outpost/contract/agent-releases';
import type { AgentBuild } from '@outpost/contract/agent-protocol';
import { isDeviceActionable, osTypeLabel } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import type { RolloutPlanInput } from '@outpost/contract/rollouts';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import type { DeploymentsService } from '../deployments/deployments.service';
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
  /** an update in waves becomes an agent_update deployment job (docs/product/rollouts.md#agent-updates-in-waves) */
  deployments: Pick<DeploymentsService, 'createAgentUpdateJob'>;
};

type Target = Awaited<ReturnType<typeof findTargets>>[number];
type Chosen = { device: Target; to: string; builds: AgentBuild[] };

/** The executables an update_agent command offers an agent of this OS type. */
function buildsFor(published: AgentRelease[], osType: string | null): AgentBuild[] {
  return published
    .filter((r) => r.os_type === osType?.toLowerCase())
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
}

/** The skip rules (current, newer, no release, offline, pending): the agents to update and the others. */
function choose(targets: Target[], published: AgentRelease[], pending: Set<number>) {
  const skipped: UpdateAgentsResponse['skipped'] = [];
  const chosen: Chosen[] = [];
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
      chosen.push({ device, to, builds: buildsFor(published, device.osType) });
    }
  }
  return { chosen, skipped };
}

/** The "Update Agent" audit entry of one agent (with its command, or its wave job). */
function auditUpdate(tx: Executor, ctx: RequestContext, c: Chosen, link: Record<string, unknown>) {
  const { device, to } = c;
  return writeAudit(tx, ctx, {
    action: 'Update Agent',
    resourceType: 'device',
    resourceId: device.id,
    details: `Agent update to ${to} requested for ${device.hostname ?? device.deviceGuid} (running ${device.agentVersion ?? 'an unknown version'})`,
    oldValues: { agent_version: device.agentVersion },
    newValues: { agent_version: to, ...link },
    siteIds: [device.siteId],
  });
}

export function createAgentUpdateService({ db, releases, commandQueue, deployments }: AgentUpdateDeps) {
  /** All at once: one update_agent command per agent, queued now. */
  async function updateNow(ctx: RequestContext, chosen: Chosen[]): Promise<UpdateAgentsResponse['updates']> {
    const updates = await db.transaction(async (tx) => {
      const out: UpdateAgentsResponse['updates'] = [];
      for (const c of chosen) {
        const commandId = await commandQueue.queueCommand(tx, {
          tenantId: ctx.tenantId,
          deviceId: c.device.id,
          command: { kind: 'update_agent', version: c.to, builds: c.builds },
          createdBy: ctx.userId,
          expiresInMs: UPDATE_AGENT_EXPIRY_MS,
        });
        await auditUpdate(tx, ctx, c, { command_id: commandId });
        out.push({ device_id: c.device.id, command_id: commandId, from: c.device.agentVersion, to: c.to });
      }
      return out;
    });
    await commandQueue.dispatch(updates.map((u) => u.device_id));
    return updates;
  }

  /** In waves: an agent_update job; each wave's commands are queued when the wave starts. */
  async function updateInWaves(ctx: RequestContext, chosen: Chosen[], plan: RolloutPlanInput) {
    const agentUpdate: AgentUpdateTargets = {};
    for (const c of chosen) {
      agentUpdate[c.device.osType?.toLowerCase() ?? ''] = { version: c.to, builds: c.builds };
    }
    const job = await deployments.createAgentUpdateJob(
      ctx,
      {
        plan,
        targets: chosen.map(({ device, to }) => ({
          id: device.id,
          siteId: device.siteId,
          deviceGuid: device.deviceGuid,
          hostname: device.hostname,
          ipAddress: device.ipAddress,
          to,
        })),
        agentUpdate,
      },
      async (tx, jobId) => {
        for (const c of chosen) {
          await auditUpdate(tx, ctx, c, { job_id: jobId });
        }
      },
    );
    const planned = chosen.map((c) => ({ device_id: c.device.id, from: c.device.agentVersion, to: c.to }));
    return { jobId: job.id, planned };
  }

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
      if (!targets.some((t) => targetVersionFor(t.osType, published) !== null)) {
        throw conflict(releaseMessages.noneForDevices, 'NO_AGENT_RELEASE');
      }
      const { chosen, skipped } = choose(targets, published, await pendingUpdates(db, ids));
      if (body.rollout && chosen.length > 0) {
        const { jobId, planned } = await updateInWaves(ctx, chosen, body.rollout);
        return { queued: planned.length, job_id: jobId, updates: [], planned, skipped };
      }
      const updates = await updateNow(ctx, chosen);
      return { queued: updates.length, updates, skipped };
    },
  };
}
