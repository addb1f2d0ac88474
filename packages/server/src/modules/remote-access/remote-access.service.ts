import type { AgentRemoteMessage, RemotePolicyMessage } from '@outpost/contract/agent-protocol';
import { deviceMessages } from '@outpost/contract/messages';
import { DEFAULT_REMOTE_ACCESS, remoteMessages } from '@outpost/contract/remote-access';
import type {
  RemoteAccessSettings,
  RemoteAccessUpdate,
  RemoteAccessView,
  RemoteKind,
} from '@outpost/contract/remote-access';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { isAdmin, requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import { forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import type { RemoteReports } from '../../live/agent-remote';
import { replyKey } from '../../live/agent-remote';
import type { Bus } from '../../live/bus';
import type { DeviceRef } from '../../live/device-state';
import type { DevicesService } from '../devices/devices.service';
import { findRemoteAccess, saveRemoteAccess } from './remote-access.queries';

// docs/product/remote-access.md#settings: what a tenant allows of the remote terminal and file
// transfer, who may change it (administrators of all sites), the check every terminal and file
// request passes first (`authorize`), and the agent sockets' RemoteReports port: the policy an
// agent is told, and its answers handed on over the bus to the instance that waits for them.

export type RemoteTarget = {
  device: {
    id: number;
    tenantId: number;
    siteId: number | null;
    deviceGuid: string;
    hostname: string | null;
    osType: string | null;
    status: string;
  };
  settings: RemoteAccessSettings;
};

export function createRemoteAccessService(deps: {
  db: Db;
  bus: Pick<Bus, 'publish'>;
  devices: Pick<DevicesService, 'findManyInScope'>;
}) {
  const { db, bus, devices } = deps;
  const settingsOf = async (tenantId: number): Promise<RemoteAccessSettings> => ({
    ...DEFAULT_REMOTE_ACCESS,
    ...(await findRemoteAccess(db, tenantId)),
  });
  const mayChange = (ctx: RequestContext) => isAdmin(ctx) && !isSiteLimited(ctx);

  const remoteReports: RemoteReports = {
    async policyFor(device: DeviceRef): Promise<RemotePolicyMessage> {
      const s = await settingsOf(device.tenantId);
      return {
        type: 'remote_policy',
        terminal: s.terminal_enabled,
        files: s.files_enabled,
        consent: s.consent_required,
        banner: s.show_banner,
      };
    },
    async fromAgent(device: DeviceRef, message: AgentRemoteMessage): Promise<void> {
      await bus.publish('remote.reply', { key: replyKey(message), deviceId: device.id, message });
    },
  };

  return {
    remoteReports,
    settingsOf,

    async get(ctx: RequestContext): Promise<RemoteAccessView> {
      const settings = await settingsOf(ctx.tenantId);
      return {
        ...settings,
        can_edit: mayChange(ctx),
        caller_allowed: settings.allowed_roles.includes(ctx.role),
      };
    },

    async update(ctx: RequestContext, input: RemoteAccessUpdate): Promise<RemoteAccessView> {
      requireAdmin(ctx);
      if (isSiteLimited(ctx)) {
        throw forbidden(remoteMessages.allSitesOnly, 'ALL_SITES_ONLY');
      }
      const before = await settingsOf(ctx.tenantId);
      const after: RemoteAccessSettings = { ...before, ...input };
      await db.transaction(async (tx) => {
        await saveRemoteAccess(tx, ctx.tenantId, after, { userId: ctx.userId, name: ctx.name });
        await writeAudit(tx, ctx, {
          action: 'Update Remote Access Settings',
          resourceType: 'tenant',
          resourceId: ctx.tenantId,
          details: describeChange(before, after),
          oldValues: before,
          newValues: after,
        });
      });
      // the tenant's agents are told, wherever their sockets are
      await bus.publish('agent.remote_policy', { tenantId: ctx.tenantId });
      return { ...after, can_edit: true, caller_allowed: after.allowed_roles.includes(ctx.role) };
    },

    /**
     * The device of `deviceId` in the caller's scope, if the tenant allows `kind` and the caller's
     * role: otherwise 403 (turned off, role) or 404 (not found, another site or tenant).
     */
    async authorize(ctx: RequestContext, kind: RemoteKind, deviceId: number): Promise<RemoteTarget> {
      const settings = await settingsOf(ctx.tenantId);
      const [device] = await devices.findManyInScope(ctx, [deviceId]);
      if (!device) {
        throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
      }
      if (kind === 'terminal' && !settings.terminal_enabled) {
        throw forbidden(remoteMessages.terminalOff, 'REMOTE_TERMINAL_OFF');
      }
      if (kind === 'files' && !settings.files_enabled) {
        throw forbidden(remoteMessages.filesOff, 'REMOTE_FILES_OFF');
      }
      if (!settings.allowed_roles.includes(ctx.role)) {
        throw forbidden(remoteMessages.roleNotAllowed, 'REMOTE_ROLE_NOT_ALLOWED');
      }
      return {
        device: {
          id: device.id,
          tenantId: ctx.tenantId,
          siteId: device.siteId,
          deviceGuid: device.deviceGuid,
          hostname: device.hostname,
          osType: device.osType,
          status: device.status,
        },
        settings,
      };
    },
  };
}

export type RemoteAccessService = ReturnType<typeof createRemoteAccessService>;

const LABELS: Record<keyof RemoteAccessSettings, string> = {
  terminal_enabled: 'terminal',
  files_enabled: 'file transfer',
  allowed_roles: 'roles',
  consent_required: 'consent',
  show_banner: 'banner',
  idle_timeout_minutes: 'idle timeout',
  max_session_minutes: 'session length',
  max_bytes_per_second: 'data rate',
  max_file_bytes: 'file size',
};

/** "Changed terminal, consent" — which settings an update changed. */
function describeChange(before: RemoteAccessSettings, after: RemoteAccessSettings): string {
  const changed = (Object.keys(LABELS) as (keyof RemoteAccessSettings)[]).filter(
    (k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]),
  );
  return changed.length === 0 ? 'No change' : `Changed ${changed.map((k) => LABELS[k]).join(', ')}`;
}
