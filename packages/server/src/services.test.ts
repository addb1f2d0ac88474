import { describe, expect, it, vi } from 'vitest';
import type { FastifyBaseLogger } from 'fastify';
import { loadConfig } from './config';
import type { Database } from './db/client';
import type { Bus } from './live/bus';
import type { CommandQueue } from './live/command-queue';
import type { ReleaseStore } from './modules/agent-releases/release-store';
import { createSessionTokens } from './modules/auth/session-token';
import { createDashboardService } from './modules/dashboard/dashboard.service';
import { createDeploymentsService } from './modules/deployments/deployments.service';
import { createDeviceActionsService } from './modules/device-actions/device-actions.service';
import { createDevicesService } from './modules/devices/devices.service';
import type { BlobStore } from './modules/files/blob-store';
import { createServices } from './services';
import type * as DevicesModule from './modules/devices/devices.service';
import type * as DashboardModule from './modules/dashboard/dashboard.service';
import type * as DeviceActionsModule from './modules/device-actions/device-actions.service';
import type * as DeploymentsModule from './modules/deployments/deployments.service';

// The factories keep their behaviour; the spies only count the calls and keep their deps.
vi.mock('./modules/devices/devices.service', async (importOriginal) => {
  const real = await importOriginal<typeof DevicesModule>();
  return { ...real, createDevicesService: vi.fn(real.createDevicesService) };
});
vi.mock('./modules/dashboard/dashboard.service', async (importOriginal) => {
  const real = await importOriginal<typeof DashboardModule>();
  return { ...real, createDashboardService: vi.fn(real.createDashboardService) };
});
vi.mock('./modules/device-actions/device-actions.service', async (importOriginal) => {
  const real = await importOriginal<typeof DeviceActionsModule>();
  return { ...real, createDeviceActionsService: vi.fn(real.createDeviceActionsService) };
});
vi.mock('./modules/deployments/deployments.service', async (importOriginal) => {
  const real = await importOriginal<typeof DeploymentsModule>();
  return { ...real, createDeploymentsService: vi.fn(real.createDeploymentsService) };
});

/** Building the services touches nothing: the database, bus and queue are only stand-ins. */
function build() {
  const config = loadConfig({
    DATA_DIR: `/tmp/outpost-services-test-${process.pid}`,
    SESSION_SECRET: 'services-unit-test-session-secret-0123456789',
    LOG_LEVEL: 'silent',
  });
  return createServices({
    config,
    database: { db: {}, kind: 'pglite', ping: () => Promise.resolve() } as unknown as Database,
    tokens: createSessionTokens(config.sessionSecret),
    // the terminal subscribes to the agents' answers when built (an answer must not be missed)
    bus: { subscribe: () => () => undefined, publish: () => Promise.resolve() } as unknown as Bus,
    commandQueue: {} as CommandQueue,
    portalHub: { send: () => Promise.resolve() },
    log: { warn: () => undefined, error: () => undefined } as unknown as FastifyBaseLogger,
    blobStore: {} as BlobStore,
    releases: {} as ReleaseStore,
  });
}

describe('createServices', () => {
  it('builds the devices service (and its search-total cache) once, shared by every module that uses it', () => {
    vi.mocked(createDevicesService).mockClear();
    const services = build();

    expect(createDevicesService).toHaveBeenCalledTimes(1);
    expect(vi.mocked(createDevicesService).mock.results[0]?.value).toBe(services.devices);
    // the dashboard, device actions and deployments get that same instance
    expect(vi.mocked(createDashboardService).mock.lastCall?.[0].devices).toBe(services.devices);
    expect(vi.mocked(createDeviceActionsService).mock.lastCall?.[0].devices).toBe(services.devices);
    expect(vi.mocked(createDeploymentsService).mock.lastCall?.[0].devices).toBe(services.devices);
    // and the dashboard counts running deployments with the one deployments service
    expect(vi.mocked(createDashboardService).mock.lastCall?.[0].deployments).toBe(services.deployments);
  });

  it('builds a fresh set per call (one per app), never shared between two apps', () => {
    vi.mocked(createDevicesService).mockClear();
    const first = build();
    const second = build();

    expect(createDevicesService).toHaveBeenCalledTimes(2);
    expect(first.devices).not.toBe(second.devices);
    expect(first.engine).not.toBe(second.engine);
  });
});
