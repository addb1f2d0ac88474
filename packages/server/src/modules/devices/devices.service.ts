import type {
  BulkDeleteDevicesBody,
  Device,
  DeviceListItem,
  DeviceListFilters,
  DeviceListResponse,
  InventoryKind,
  RefreshResponse,
  Service,
  ServiceAction,
  ServiceControlResponse,
  SiteOption,
  SoftwareListResponse,
} from '@outpost/contract/devices';
import { AGENT_ANSWER_WAIT_MS, isDeviceActionable } from '@outpost/contract/devices';
import { NotReportedPart } from '@outpost/contract/agent-protocol';
import type { AgentCommand } from '@outpost/contract/agent-protocol';
import { paginate } from '@outpost/contract/envelope';
import { accessMessages, deviceMessages, messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import { HttpError, conflict, notFound } from '../../lib/errors';
import type { CommandQueue } from '../../live/command-queue';
import type { Bus } from '../../live/bus';
import { requireAdmin } from '../../lib/context';
import type { RequestContext } from '../../lib/context';
import type { Scope } from '../../lib/scope';
import { canSeeSite } from '../../lib/scope';
import {
  countTenantDevices,
  deviceScope,
  findDeviceByGuid,
  findDeviceScopeByGuid,
  toDevice,
} from './devices.queries';
import {
  findScopedDevice,
  findScopedDevicesByIds,
  listDeviceSoftware,
  listDevices,
  listSiteOptions,
  recentDevices,
  statusCounts,
  compactDeviceCounts,
} from './devices-list.queries';
import type { ScopedDevice } from './devices-list.queries';
import { createCleanupService } from './cleanup.service';
import { exportDevices } from './devices-export.service';
import type { ExportFilters } from './devices-export.queries';
import { withTagsAndFields } from './device-list-extras.queries';
import { createDeviceRemoval } from './device-removal';
import { createSearchTotals } from './search-totals';

export type DevicesServiceDeps = {
  db: Db;
  commandQueue: CommandQueue;
  bus: Bus;
  /** how long to wait for the agent's answer (tests shorten it) */
  answerWaitMs?: number;
};

/** Service control, restart and shutdown need a device that is there to do them (docs/product/devices.md#services). */
export function requireActionable(device: { hostname: string | null; status: string }): void {
  if (device.status === 'offline') {
    throw conflict(deviceMessages.deviceOffline(device.hostname), 'DEVICE_OFFLINE');
  }
  if (!isDeviceActionable(device.status)) {
    throw conflict(
      accessMessages.deviceNotActionable(device.hostname, device.status),
      'DEVICE_NOT_ACTIONABLE',
    );
  }
}

/**
 * Service control only for a service the device reported (never a name the agent has not
 * listed): not reported yet → 409, unknown name → 404.
 */
function requireReportedService(device: ScopedDevice, serviceName: string): void {
  if (!device.services) {
    throw conflict(accessMessages.servicesNotReported(device.hostname), 'SERVICES_NOT_REPORTED');
  }
  if (!device.services.some((s) => s.serviceName === serviceName)) {
    throw notFound(accessMessages.serviceNotFound(serviceName, device.hostname), 'SERVICE_NOT_FOUND');
  }
}

/** What asking an agent needs: the database, the command queue and how long to wait. */
type AgentAsk = { db: Db; commandQueue: CommandQueue; answerWaitMs: number };

async function requireDevice(db: Db, ctx: RequestContext, idOrGuid: string): Promise<ScopedDevice> {
  const device = await findScopedDevice(db, ctx, idOrGuid);
  if (!device) {
    throw notFound(deviceMessages.deviceNotFound, 'DEVICE_NOT_FOUND');
  }
  return device;
}

/**
 * Queues a command (with its audit entry, in one transaction), rings the agent's doorbell and
 * waits a bounded time for its answer. The caller has checked the device can answer: service
 * control and refresh only make sense while someone is waiting for the answer.
 */
async function askAgent(
  deps: AgentAsk,
  ctx: RequestContext,
  device: ScopedDevice,
  command: AgentCommand,
  audit: { action: string; details: string; newValues: Record<string, unknown> },
) {
  const { db, commandQueue, answerWaitMs } = deps;
  const commandId = await db.transaction(async (tx) => {
    const id = await commandQueue.queueCommand(tx, {
      tenantId: ctx.tenantId,
      deviceId: device.id,
      command,
      createdBy: ctx.userId,
      // Not delivered in time, it must not run later by surprise.
      expiresInMs: answerWaitMs,
    });
    await writeAudit(tx, ctx, {
      action: audit.action,
      resourceType: 'device',
      resourceId: device.id,
      details: audit.details,
      newValues: { ...audit.newValues, command_id: id },
      siteIds: [device.siteId],
    });
    return id;
  });
  await commandQueue.dispatch([device.id]);
  const outcome = await commandQueue.waitForResult(commandId, answerWaitMs);
  if (outcome.status === 'timeout') {
    throw new HttpError(504, deviceMessages.agentNoAnswer(Math.round(answerWaitMs / 1000)), 'AGENT_TIMEOUT');
  }
  if (outcome.status === 'failed') {
    throw new HttpError(502, outcome.error || deviceMessages.agentFailed, 'AGENT_FAILED');
  }
  return outcome.result ?? {};
}

async function controlService(
  deps: AgentAsk,
  ctx: RequestContext,
  idOrGuid: string,
  serviceName: string,
  action: ServiceAction,
): Promise<ServiceControlResponse> {
  const device = await requireDevice(deps.db, ctx, idOrGuid);
  requireReportedService(device, serviceName);
  requireActionable(device);
  const result = await askAgent(
    deps,
    ctx,
    device,
    { kind: 'service_control', serviceName, action },
    {
      // 'Service Start', 'Service Stop', 'Service Restart' (the audit actions)
      action: `Service ${action.charAt(0).toUpperCase()}${action.slice(1)}`,
      details: `${action} ${serviceName} on ${device.hostname ?? device.deviceGuid}`,
      newValues: { service: serviceName, action },
    },
  );
  return {
    serviceName,
    action,
    status: typeof result.status === 'string' ? result.status : 'Unknown',
    message: deviceMessages.serviceActionDone(action),
  };
}

async function refresh(
  deps: AgentAsk,
  ctx: RequestContext,
  idOrGuid: string,
  kind: InventoryKind,
): Promise<RefreshResponse> {
  const { db } = deps;
  const device = await requireDevice(db, ctx, idOrGuid);
  if (device.status === 'offline') {
    throw conflict(deviceMessages.deviceOffline(device.hostname), 'DEVICE_OFFLINE');
  }
  const answer = await askAgent(
    deps,
    ctx,
    device,
    { kind: 'refresh_inventory', inventoryKind: kind },
    {
      action: 'Refresh Device Inventory',
      details: `${kind} of ${device.hostname ?? device.deviceGuid}`,
      newValues: { kind },
    },
  );
  // The agent sends the inventory before its result, and one agent's messages are handled
  // in order, so the new data is stored by now.
  const after = await findScopedDevice(db, ctx, String(device.id));
  const notReported = NotReportedPart.array().safeParse(answer.notReported).data ?? [];
  return {
    kind,
    message:
      notReported.length > 0
        ? messages.inventoryNotReported(notReported.map((p) => `${p.kind} (${p.reason})`).join(', '))
        : `The device reported its ${kind} data`,
    last_inventory_update: after?.lastInventoryUpdate?.toISOString() ?? null,
    ...(notReported.length > 0 && { not_reported: notReported }),
  };
}

// Device actions never touch the host running the server: they are commands for the agent.
export function createDevicesService({
  db,
  commandQueue,
  bus,
  answerWaitMs = AGENT_ANSWER_WAIT_MS,
}: DevicesServiceDeps) {
  const searchTotals = createSearchTotals();
  const ask: AgentAsk = { db, commandQueue, answerWaitMs };
  const requireDeviceIn = (ctx: RequestContext, idOrGuid: string) => requireDevice(db, ctx, idOrGuid);

  const removeDevices = createDeviceRemoval({
    db,
    bus,
    onRemove: (tenantId) => searchTotals.forgetTenant(tenantId),
  });

  return {
    async list(ctx: RequestContext, f: DeviceListFilters): Promise<DeviceListResponse> {
      // a search or a set filter (tag, group, custom field) is counted row by row: its total is reused
      const isCounted = Boolean(f.search || f.tag_id || f.group_id || f.field_key);
      const known = isCounted ? searchTotals.entry(ctx, f) : undefined;
      const { rows, total, isSearchCounted, setSize } = await listDevices(db, ctx, f, {
        searchTotal: known?.total,
        setSize: known?.setSize,
      });
      if (isSearchCounted) {
        searchTotals.set(ctx, f, total, setSize);
      }
      const data = await withTagsAndFields(db, ctx.tenantId, rows, f.fields);
      return { data, pagination: paginate(f.page, f.limit, total) };
    },

    /** The list as CSV, same filters and scope (docs/product/device-sets.md#exports; a group's members too). */
    exportCsv: (ctx: RequestContext, f: ExportFilters, name?: string) => exportDevices(db, ctx, f, name),

    async get(ctx: RequestContext, idOrGuid: string): Promise<Device> {
      return toDevice(await requireDeviceIn(ctx, idOrGuid));
    },

    async software(
      ctx: RequestContext,
      idOrGuid: string,
      q: { page: number; limit: number; search?: string },
    ): Promise<SoftwareListResponse> {
      const device = await requireDeviceIn(ctx, idOrGuid);
      const { rows, total } = await listDeviceSoftware(db, device.id, q);
      const { totalPages } = paginate(q.page, q.limit, total);
      return { data: rows, total, totalPages, page: q.page, limit: q.limit };
    },

    async services(ctx: RequestContext, idOrGuid: string): Promise<Service[]> {
      const device = await requireDeviceIn(ctx, idOrGuid);
      return [...(device.services ?? [])].sort((a, b) =>
        (a.displayName || a.serviceName).localeCompare(b.displayName || b.serviceName),
      );
    },

    async controlService(
      ctx: RequestContext,
      idOrGuid: string,
      serviceName: string,
      action: ServiceAction,
    ): Promise<ServiceControlResponse> {
      return controlService(ask, ctx, idOrGuid, serviceName, action);
    },

    async refresh(ctx: RequestContext, idOrGuid: string, kind: InventoryKind): Promise<RefreshResponse> {
      return refresh(ask, ctx, idOrGuid, kind);
    },

    async sites(ctx: RequestContext): Promise<SiteOption[]> {
      return listSiteOptions(db, ctx);
    },

    /** The devices seen most recently, as the list shows them (the dashboard uses it). */
    async recent(ctx: RequestContext, limit: number): Promise<DeviceListItem[]> {
      return recentDevices(db, ctx, limit);
    },

    /** Folds the device counters' deltas (a timer calls it every few seconds). */
    async compactCounts(): Promise<void> {
      await compactDeviceCounts(db);
    },

    /** Devices in scope and how many are connected (online or logged in), from the counters. */
    async counts(ctx: RequestContext): Promise<{ total: number; online: number }> {
      return statusCounts(db, ctx);
    },

    /** The devices of these ids in the caller's scope (bulk operations of other modules). */
    async findManyInScope(ctx: RequestContext, ids: number[]) {
      return findScopedDevicesByIds(db, ctx, ids);
    },

    async remove(ctx: RequestContext, idOrGuid: string) {
      requireAdmin(ctx);
      const device = await requireDeviceIn(ctx, idOrGuid);
      const row = {
        id: device.id,
        hostname: device.hostname,
        deviceGuid: device.deviceGuid,
        siteId: device.siteId,
      };
      await removeDevices(ctx, [row], {
        action: 'Delete Device',
        details: () => `Deleted ${device.hostname ?? device.deviceGuid}`,
      });
      return { deleted: 1, device_ids: [device.id] };
    },

    async removeMany(ctx: RequestContext, body: BulkDeleteDevicesBody) {
      requireAdmin(ctx);
      const ids = [...new Set(body.device_ids)];
      const rows = await findScopedDevicesByIds(db, ctx, ids);
      const found = new Set(rows.map((r) => r.id));
      const missing = ids.filter((id) => !found.has(id));
      if (missing.length > 0) {
        throw notFound(deviceMessages.devicesNotFound(missing), 'DEVICE_NOT_FOUND');
      }
      await removeDevices(ctx, rows, {
        action: 'Bulk Delete Devices',
        details: (done) =>
          `Deleted ${done.length} device${done.length === 1 ? '' : 's'}: ${done.map((r) => r.hostname ?? r.deviceGuid).join(', ')}`,
      });
      return { deleted: rows.length, device_ids: rows.map((r) => r.id) };
    },

    ...createCleanupService({ db, removeDevices }),
  };
}

export type DevicesService = ReturnType<typeof createDevicesService>;

/**
 * What the live layer needs from devices (the portal socket authorising a subscription, tests and
 * tools finding a device), without the command queue the full service depends on: live/ uses
 * devices through this instead of devices.queries. The caller decides what the answer allows,
 * with lib/scope's canSeeSite.
 */
export function createDeviceDirectory(db: Db) {
  return {
    /** Tenant and site of a device, to check a subscription against; null when unknown. */
    scopeOf: (deviceGuid: string) => findDeviceScopeByGuid(db, deviceGuid),
    /** One device by guid, within the caller's scope. */
    findInScope: (scope: Scope, deviceGuid: string) => findDeviceByGuid(db, deviceScope(scope), deviceGuid),
    countInTenant: (tenantId: number) => countTenantDevices(db, tenantId),
  };
}

export type DeviceDirectory = ReturnType<typeof createDeviceDirectory>;

/** The portal socket's subscription check (docs/product/devices.md#calls): may this caller follow this device? */
export async function canFollowDevice(
  db: Db,
  ctx: Pick<RequestContext, 'tenantId' | 'siteAccessType' | 'siteIds'>,
  deviceGuid: string,
): Promise<boolean> {
  const device = await findDeviceScopeByGuid(db, deviceGuid);
  return device !== null && device.tenantId === ctx.tenantId && canSeeSite(ctx, device.siteId);
}
