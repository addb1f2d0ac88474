import crypto from 'node:crypto';
import type { NetworkInfo } from '@outpost/contract/devices';
import type { TestServer } from '../harness';
import { devices } from '../../src/db/schema';
import { hashSecret } from '../../src/modules/agents/agent-secrets';

// Device rows for integration tests, written straight to the database (a state no agent could be
// asked to produce quickly: seen 40 days ago, enrolled before another record).

export const DAY = 86_400_000;

export function iface(mac: string): NetworkInfo['interfaces'][number] {
  return {
    name: 'Ethernet',
    description: 'NIC',
    type: 'wired',
    speed: 1000,
    status: 'Up',
    macAddress: mac,
    gateway: null,
    dhcpEnabled: true,
    ipv4Addresses: [],
    ipv6Addresses: [],
    bytesReceived: 0,
    bytesSent: 0,
  };
}

export type DeviceSeed = Partial<typeof devices.$inferInsert> & { tenantId: number; hostname: string };

export async function insertDevice(server: TestServer, seed: DeviceSeed) {
  const [row] = await server.database.db
    .insert(devices)
    .values({
      deviceGuid: crypto.randomUUID(),
      secretHash: hashSecret(crypto.randomBytes(16).toString('hex')),
      status: 'offline',
      osType: 'windows',
      ...seed,
    })
    .returning({ id: devices.id, deviceGuid: devices.deviceGuid });
  return row!;
}
