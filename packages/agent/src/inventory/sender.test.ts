import { describe, expect, it } from 'vitest';
import type { InventoryMessage } from '@outpost/contract/agent-protocol';
import { messages } from '@outpost/contract/messages';
import type { DeviceBackend, InventoryParts } from '../agent';
import { collectInventoryParts } from '../system-backend';
import { bounded, ProbeTimeout } from './bounded';
import { InventoryLedger } from './digest';
import { InventorySender } from './sender';
import { collectServices } from './services';
import { collectSoftware } from './software';

// A probe that never answers (systeminformation's networkGatewayDefault() on a Windows machine
// without a default gateway) holds back none of the other parts (docs/agent-windows.md).

const never = <T>() => new Promise<T>(() => undefined);
const hardware = {
  systemInfo: { manufacturer: 'Wine', model: 'Wine' },
  cpu: { name: 'x' },
  memoryModules: [{ capacity: 8 }],
  storageDevices: [],
};
const network = { externalIp: null, dnsServers: [], interfaces: [] };

describe('inventory probes and parts are bounded and independent', () => {
  it('bounded rejects with what did not answer', async () => {
    await expect(bounded(never(), 10, 'The gateway probe')).rejects.toBeInstanceOf(ProbeTimeout);
    await expect(bounded(never(), 10, 'The gateway probe')).rejects.toThrow(
      'The gateway probe did not answer',
    );
    await expect(bounded(Promise.resolve(7), 1000, 'x')).resolves.toBe(7);
  });

  it('sends each part that is ready and names the ones that hung or failed', async () => {
    const sent: string[] = [];
    const notReported = await collectInventoryParts(
      ['hardware', 'network', 'software', 'services'],
      {
        hardware: () => Promise.resolve(hardware),
        network: never,
        software: () => Promise.reject(new Error(messages.powershellUnavailable)),
        services: () => Promise.resolve([]),
      },
      (parts) => sent.push(...Object.keys(parts)),
      50,
    );
    expect(sent.sort()).toEqual(['hardware', 'services']);
    expect(notReported).toEqual([
      { kind: 'network', reason: 'The network inventory did not answer within 0 s' },
      { kind: 'software', reason: messages.powershellUnavailable },
    ]);
  });

  it('on Windows, software and services without an answer from PowerShell are not reported, not empty', async () => {
    // this machine has no powershell.exe: the same as a Windows without one
    await expect(collectSoftware('win32')).rejects.toThrow(messages.powershellUnavailable);
    await expect(collectServices('win32')).rejects.toThrow(messages.powershellUnavailable);
  });
});

describe('InventorySender', () => {
  function setup(collect: DeviceBackend['collectInventory']) {
    const out: InventoryMessage[] = [];
    const backend: DeviceBackend = {
      hello: () => Promise.reject(new Error('unused')),
      inventory: () => Promise.reject(new Error('unused')),
      collectInventory: collect,
    };
    const sender = new InventorySender(backend, new InventoryLedger(), (m) => out.push(m));
    return { out, sender };
  }
  const facts: InventoryParts['facts'] = { hostname: 'wine-pc', osType: 'windows' };

  it('sends the facts with the first part, each part alone, then what was not reported', async () => {
    let missing = true;
    const { out, sender } = setup(async (_kind, send) => {
      send({ facts });
      send({ hardware });
      if (!missing) {
        send({ network });
      }
      return Promise.resolve(missing ? [{ kind: 'network' as const, reason: 'no answer' }] : []);
    });
    expect(await sender.send('all')).toEqual([{ kind: 'network', reason: 'no answer' }]);
    expect(
      out.map((m) => [Boolean(m.facts), Boolean(m.hardware), Boolean(m.network), m.notReported]),
    ).toEqual([
      [true, true, false, undefined],
      [false, false, false, [{ kind: 'network', reason: 'no answer' }]],
    ]);
    // the next inventory has everything: it says nothing is missing any more, once
    missing = false;
    out.length = 0;
    expect(await sender.send('all')).toEqual([]);
    expect(out.map((m) => [Boolean(m.hardware), Boolean(m.network), m.notReported])).toEqual([
      [true, false, undefined],
      [false, true, undefined],
      [false, false, []],
    ]);
    out.length = 0;
    await sender.send('all');
    expect(out.every((m) => m.notReported === undefined)).toBe(true);
  });

  it('sends the facts alone when no part could be collected', async () => {
    const { out, sender } = setup((_kind, send) => {
      send({ facts });
      return Promise.resolve([{ kind: 'software' as const, reason: messages.powershellUnavailable }]);
    });
    await sender.send('software');
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ facts, notReported: [{ kind: 'software' }] });
  });
});
