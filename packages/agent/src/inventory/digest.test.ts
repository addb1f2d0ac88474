import { describe, expect, it } from 'vitest';
import type { HardwareInfo, Service, SoftwareItem } from '@outpost/contract/devices';
import { InventoryLedger, inventoryDigest } from './digest';

const hardware: HardwareInfo = {
  systemInfo: { manufacturer: 'Dell', model: 'Latitude' },
  cpu: { name: 'i7' },
  memoryModules: [{ capacity: 16e9 }],
  storageDevices: [],
};
const software: SoftwareItem[] = [
  { name: 'Firefox', displayName: 'Firefox', publisher: 'Mozilla', version: '128.0', installDate: null },
];
const service = (status: string): Service => ({
  serviceName: 'sshd',
  displayName: 'OpenSSH',
  status,
  startType: 'Automatic',
});
const services = [service('Running')];

describe('inventory ledger', () => {
  it('sends every part until the server acknowledged it, then only what changed after a welcome that holds it', () => {
    const ledger = new InventoryLedger();
    expect(ledger.digests()).toBeUndefined();
    const first = ledger.select({ hardware, software, services }, true);
    expect(Object.keys(first.parts).sort()).toEqual(['hardware', 'services', 'software']);
    expect(first.digests.software).toBe(inventoryDigest(software));
    ledger.sent('m1', first.digests);
    ledger.acknowledged('m1');
    expect(ledger.digests()).toEqual(first.digests);

    ledger.welcomed(['hardware', 'software', 'services']);
    const changed = [service('Stopped')];
    const next = ledger.select({ hardware, software, services: changed }, true);
    expect(next.parts).toEqual({ services: changed });
    expect(next.digests).toEqual({ services: inventoryDigest(changed) });
  });

  it('resends the parts a welcome does not name (an older server, or a database restored)', () => {
    const ledger = new InventoryLedger();
    ledger.sent('m1', ledger.select({ hardware, software }, true).digests);
    ledger.acknowledged('m1');
    ledger.welcomed(['hardware']);
    expect(Object.keys(ledger.select({ hardware, software }, true).parts)).toEqual(['software']);
    ledger.welcomed(undefined);
    expect(ledger.digests()).toBeUndefined();
    expect(Object.keys(ledger.select({ hardware, software }, true).parts).sort()).toEqual([
      'hardware',
      'software',
    ]);
  });

  it('does not leave out a part an unacknowledged message still carries, nor any part of a refresh', () => {
    const ledger = new InventoryLedger();
    ledger.sent('m1', ledger.select({ software }, true).digests);
    ledger.acknowledged('m1');
    ledger.welcomed(['software']);
    // an older list waits in the outbox: resent first, it would replace what the server holds
    ledger.sent('m2', { software: inventoryDigest([]) });
    expect(Object.keys(ledger.select({ software }, true).parts)).toEqual(['software']);
    ledger.acknowledged('m2');
    // a refresh asked for by the portal sends the part whatever the server holds
    expect(Object.keys(ledger.select({ software }, false).parts)).toEqual(['software']);
  });
});
