import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer } from '../test/harness';
import type { TestServer } from '../test/harness';
import { createDevicesService } from './modules/devices/devices.service';
import type * as DevicesModule from './modules/devices/devices.service';

// The whole app, as the server runs it: every route that uses devices (the device list, the
// dashboard, device actions, deployments) shares one devices service, so one search-total cache.
vi.mock('./modules/devices/devices.service', async (importOriginal) => {
  const real = await importOriginal<typeof DevicesModule>();
  return { ...real, createDevicesService: vi.fn(real.createDevicesService) };
});

describe('the composition root (services.ts)', () => {
  let server: TestServer;

  beforeAll(async () => {
    vi.mocked(createDevicesService).mockClear();
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(async () => {
    await server.close();
  });

  it('builds the devices service once per app, and the routes that use it answer', async () => {
    expect(createDevicesService).toHaveBeenCalledTimes(1);
    const { token } = await server.devSignIn('admin@acme.example');
    const list = await server.request('GET', '/api/customer/devices?search=a', { token });
    const dashboard = await server.request('GET', '/api/customer/devices/stats/dashboard', { token });
    const actions = await server.request('GET', '/api/customer/deployments/device-actions/list', { token });
    expect([list.status, dashboard.status, actions.status]).toEqual([200, 200, 200]);
    expect(createDevicesService).toHaveBeenCalledTimes(1);
  });
});
