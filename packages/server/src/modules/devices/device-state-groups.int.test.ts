import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InventoryMessage } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { hello } from '../../../test/support/live';
import { createDeviceStateService } from './device-state.service';

// docs/product/device-sets.md#groups "Membership": a hello or an inventory is told to the groups
// (and through them the check sets) only when it changed what a dynamic group's filter reads: the
// OS, its version, the architecture, the agent version, the software. A reconnecting agent that
// reports what is stored re-evaluates nothing.

describe('device state tells the groups only of what they read', () => {
  let server: TestServer;
  let tenantId: number;
  const told: number[][] = [];
  let state: ReturnType<typeof createDeviceStateService>;
  let seq = 0;

  const inventory = (parts: Partial<InventoryMessage>): InventoryMessage => ({
    type: 'inventory',
    messageId: `inv-${++seq}`,
    collectedAt: new Date().toISOString(),
    ...parts,
  });
  const service = (status: string) => ({
    serviceName: 'Spooler',
    displayName: 'Print Spooler',
    status,
    startType: 'Automatic',
  });

  beforeAll(async () => {
    server = await startTestServer();
    tenantId = (await server.seedDemo())!.acmeTenantId;
    state = createDeviceStateService({
      db: server.database.db,
      onDevicesChanged: (_tenant, ids) => {
        told.push(ids);
        return Promise.resolve();
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('tells a hello whose OS, version, architecture or agent version differ, and not one that repeats them', async () => {
    const { id } = await insertDevice(server, {
      tenantId,
      hostname: 'pc-hello',
      osType: 'windows',
      osVersion: 'Windows 11 Pro 23H2',
      agentVersion: '1.0.0-test',
    });
    const connect = async (h: Parameters<typeof hello>[0]) => {
      told.length = 0;
      const change = await state.markConnected(id, `conn-${++seq}`, hello(h), '127.0.0.1');
      expect(change?.ref.id).toBe(id);
      return told.map((ids) => [...ids]);
    };
    expect(await connect({})).toEqual([]);
    expect(await connect({ hostname: 'pc-hello-renamed' })).toEqual([]);
    expect(await connect({ osVersion: 'Windows 11 Pro 24H2' })).toEqual([[id]]);
    expect(await connect({ osVersion: 'Windows 11 Pro 24H2' })).toEqual([]);
    expect(await connect({ osVersion: 'Windows 11 Pro 24H2', agentVersion: '1.1.0' })).toEqual([[id]]);
    expect(
      await connect({ osVersion: 'Windows 11 Pro 24H2', agentVersion: '1.1.0', architecture: 'arm64' }),
    ).toEqual([[id]]);
  });

  it('tells an inventory with new software or new OS facts, and not one of services or a hostname alone', async () => {
    const device = await insertDevice(server, {
      tenantId,
      hostname: 'pc-inventory',
      osType: 'windows',
      osVersion: 'Windows 11 Pro 23H2',
    });
    const ref = { id: device.id, tenantId, siteId: null, deviceGuid: device.deviceGuid };
    const apply = async (parts: Partial<InventoryMessage>) => {
      told.length = 0;
      const change = await state.applyInventory(ref, inventory(parts));
      expect(change?.ref.id).toBe(device.id);
      return told.length;
    };
    expect(await apply({ services: [service('Running')] })).toBe(0);
    expect(await apply({ services: [service('Stopped')], facts: { hostname: 'pc-inventory-2' } })).toBe(0);
    const software = [
      { name: '7-Zip', displayName: null, publisher: null, version: '24.08', installDate: null },
    ];
    expect(await apply({ software })).toBe(1);
    expect(await apply({ software })).toBe(0);
    expect(await apply({ facts: { osVersion: 'Windows 11 Pro 23H2' } })).toBe(0);
    expect(await apply({ facts: { osVersion: 'Windows 11 Pro 24H2' } })).toBe(1);
  });
});
