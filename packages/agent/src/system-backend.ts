import type { InventoryKind } from '@outpost/contract/devices';
import type { NotReportedPart } from '@outpost/contract/agent-protocol';
import type { DeviceBackend, InventoryParts } from './agent';
import { AGENT_VERSION } from './version';
import { PART_TIMEOUT_MS, bounded } from './inventory/bounded';
import { createSessionsWatch, utmpPath } from './inventory/sessions-watch';
import { createProbeClient } from './inventory/probe-worker';
import type { Probes } from './inventory/probe-worker';

type Collectors = { [K in InventoryKind]: () => Promise<NonNullable<InventoryParts[K]>> };

/**
 * Collects the inventory parts independently, each bounded by `partTimeoutMs`: each part is
 * handed to `send` as soon as it is ready, and the ones that failed or did not answer come back
 * with why (docs/agent-windows.md: one probe that never answers must not hold back the others).
 */
export async function collectInventoryParts(
  kinds: readonly InventoryKind[],
  collectors: Collectors,
  send: (parts: Omit<InventoryParts, 'facts'>) => void,
  partTimeoutMs = PART_TIMEOUT_MS,
): Promise<NotReportedPart[]> {
  const notReported: NotReportedPart[] = [];
  await Promise.all(
    kinds.map(async (kind) => {
      try {
        const collect: () => Promise<unknown> = collectors[kind];
        const part = await bounded(collect(), partTimeoutMs, `The ${kind} inventory`);
        send({ [kind]: part });
      } catch (err) {
        notReported.push({ kind, reason: (err instanceof Error ? err.message : String(err)).slice(0, 500) });
      }
    }),
  );
  // in a fixed order, so the device's note does not change with which part failed first
  return notReported.sort((a, b) => kinds.indexOf(a.kind) - kinds.indexOf(b.kind));
}

/**
 * Where the probes run (docs/agent.md#footprint): 'worker', in a process of the agent's own that
 * exits when idle (inventory/probe-worker.ts), on Linux; 'inline', loaded into the agent on first
 * use, elsewhere (not measured there yet). OUTPOST_AGENT_PROBES=inline|worker overrides it.
 */
export function probesMode(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
): 'worker' | 'inline' {
  const given = env.OUTPOST_AGENT_PROBES;
  if (given === 'worker' || given === 'inline') {
    return given;
  }
  return platform === 'linux' ? 'worker' : 'inline';
}

/** Where the probes answer: loaded into the agent, or in its worker (one per agent: share it). */
export function probeSource(mode: 'worker' | 'inline'): () => Promise<Probes> {
  if (mode === 'inline') {
    return () => import('./inventory/probes');
  }
  const client = createProbeClient();
  return () => Promise.resolve(client);
}

/**
 * This machine, for real. `probes`: 'inline' unless the agent's own program (main.ts) asks for
 * probesMode(): a worker is the agent started again, which only the agent's program can be.
 */
export function createSystemBackend(options: {
  externalIpUrl: string | null;
  probes?: 'worker' | 'inline';
  /** the probes another part of the agent uses too (main.ts: the monitor's volume list) */
  probeSource?: () => Promise<Probes>;
}): DeviceBackend {
  const probes = options.probeSource ?? probeSource(options.probes ?? 'inline');
  const collectors: Collectors = {
    hardware: async () => (await probes()).collectHardware(),
    network: async () => (await probes()).collectNetwork(options.externalIpUrl),
    software: async () => (await probes()).collectSoftware(),
    services: async () => (await probes()).collectServices(),
  };
  async function facts(): Promise<InventoryParts['facts']> {
    const f = await (await probes()).collectFacts();
    return {
      hostname: f.hostname,
      osType: f.osType,
      osVersion: f.osVersion,
      architecture: f.architecture,
      serialNumber: f.serialNumber,
      manufacturer: f.manufacturer,
      model: f.model,
      ipAddress: f.ipAddress,
    };
  }
  // login/logout polling lists the sessions only when the utmp file changed (sessions-watch.ts)
  const sessions = createSessionsWatch({
    list: async () => (await probes()).collectSessions(),
    file: utmpPath(),
  });
  const kindsOf = (kind: InventoryKind | 'all'): InventoryKind[] =>
    kind === 'all' ? ['hardware', 'network', 'software', 'services'] : [kind];
  return {
    async hello() {
      const f = await (await probes()).collectFacts();
      return {
        agentVersion: AGENT_VERSION,
        hostname: f.hostname,
        osType: f.osType,
        osVersion: f.osVersion,
        architecture: f.architecture,
        ipAddress: f.ipAddress,
        sessions: await sessions.fresh(),
      };
    },
    async inventory(kind) {
      const parts: InventoryParts = { facts: await facts() };
      await collectInventoryParts(kindsOf(kind), collectors, (part) => Object.assign(parts, part));
      return parts;
    },
    async collectInventory(kind, send) {
      send({ facts: await facts() });
      return collectInventoryParts(kindsOf(kind), collectors, send);
    },
    sessions: () => sessions.poll(),
  };
}
