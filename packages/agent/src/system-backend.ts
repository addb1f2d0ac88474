import type { DeviceBackend, InventoryParts } from './agent';
import { AGENT_VERSION } from './version';
import { collectFacts, collectHardware, collectNetwork, collectSessions } from './inventory/system';
import { collectServices } from './inventory/services';
import { collectSoftware } from './inventory/software';

/** This machine, for real (issue 3 §4). */
export function createSystemBackend(options: { externalIpUrl: string | null }): DeviceBackend {
  return {
    async hello() {
      const facts = await collectFacts();
      return {
        agentVersion: AGENT_VERSION,
        hostname: facts.hostname,
        osType: facts.osType,
        osVersion: facts.osVersion,
        architecture: facts.architecture,
        ipAddress: facts.ipAddress,
        sessions: await collectSessions(),
      };
    },
    async inventory(kind) {
      const all = kind === 'all';
      const f = await collectFacts();
      const parts: InventoryParts = {
        facts: {
          hostname: f.hostname,
          osType: f.osType,
          osVersion: f.osVersion,
          architecture: f.architecture,
          serialNumber: f.serialNumber,
          manufacturer: f.manufacturer,
          model: f.model,
          ipAddress: f.ipAddress,
        },
      };
      const [hardware, network, software, services] = await Promise.all([
        all || kind === 'hardware' ? collectHardware() : undefined,
        all || kind === 'network' ? collectNetwork(options.externalIpUrl) : undefined,
        all || kind === 'software' ? collectSoftware() : undefined,
        all || kind === 'services' ? collectServices() : undefined,
      ]);
      return { ...parts, hardware, network, software, services };
    },
    sessions: collectSessions,
  };
}
