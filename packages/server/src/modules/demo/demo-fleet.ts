import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
// A type-only import is erased at build time: the simulator itself is loaded with import() below.
import type { Fleet } from '@outpost/agent/sim/fleet';
import type { Db } from '../../db/client';
import { hashSecret, newEnrollmentToken, tokenPrefixOf } from '../agents/agent-secrets';
import { replaceEnrollmentTokens } from '../agents/agents.service';
import { raiseAgentLimit } from '../tenants/tenants.service';
import { findTenantIdByName, listFirstSites } from './demo.queries';
import { DEMO } from './demo.seed';

const DEMO_TOKEN_NAME = 'Demo fleet';
/** The fleet's seed: the same machines, and the same working-day plans, on every start. */
export const DEMO_FLEET_SEED = 2026;
const IDENTITIES_FILE = 'demo-fleet.json';

const KeptIdentities = z.array(z.object({ deviceGuid: z.string(), agentSecret: z.string() }).nullable());
type KeptIdentities = z.infer<typeof KeptIdentities>;

/**
 * The fleet's identities from the previous start, by device index. Like a real agent's kept
 * configuration, they are what lets a device re-enrol into its own record (the server never
 * matches on serial numbers or machine ids). A missing or unreadable file means new devices.
 */
function readIdentities(dataDir: string): KeptIdentities {
  try {
    const parsed = KeptIdentities.safeParse(
      JSON.parse(fs.readFileSync(path.join(dataDir, IDENTITIES_FILE), 'utf8')),
    );
    return parsed.success ? parsed.data : [];
  } catch {
    return [];
  }
}

function keepIdentities(dataDir: string, fleet: Fleet) {
  const identities: KeptIdentities = fleet.agents.map(({ deviceGuid, agentSecret }) => ({
    deviceGuid,
    agentSecret,
  }));
  fs.writeFileSync(path.join(dataDir, IDENTITIES_FILE), JSON.stringify(identities), { mode: 0o600 });
}

/**
 * The embedded demo's living fleet: simulated devices spread over the demo tenant's sites,
 * enrolled and connected over the server's own HTTP and websocket port. The server makes its own
 * enrolment tokens, one per site, replacing the previous run's; the fixed seed gives the same
 * machines, and the identities kept in DATA_DIR re-enrol them into the same device records on
 * every start. The simulator is loaded only here, so a server without the
 * demo fleet never loads it.
 */
export async function startDemoFleet(
  db: Db,
  options: {
    serverUrl: string;
    devices: number;
    dataDir: string;
    failureRate: number;
    /** OUTPOST_DEMO_FAULTS (sim/sim-faults.ts); null: the demo's own mix */
    faults?: string | null;
  },
): Promise<Fleet | null> {
  const { serverUrl, devices, dataDir, failureRate } = options;
  const tenantId = await findTenantIdByName(db, DEMO.tenantName);
  if (tenantId === null || devices <= 0) {
    return null;
  }
  const demoSites = await listFirstSites(db, tenantId, 3);
  if (demoSites.length === 0) {
    return null;
  }
  // The operator asked for this many simulated devices (OUTPOST_DEMO_DEVICES, up to 10,000): the
  // demo tenant's own limit (100) must not refuse their enrolment.
  await raiseAgentLimit(db, tenantId, devices);
  const issued = demoSites.map((site) => ({ site, token: newEnrollmentToken() }));
  await replaceEnrollmentTokens(
    db,
    tenantId,
    DEMO_TOKEN_NAME,
    issued.map(({ site, token }) => ({
      name: `${DEMO_TOKEN_NAME} (${site.code})`,
      siteId: site.id,
      tokenHash: hashSecret(token),
      tokenPrefix: tokenPrefixOf(token),
      createdByName: 'Outpost demo',
    })),
  );
  const { startFleet } = await import('@outpost/agent/sim/fleet');
  const { DEMO_FAULTS, parseSimFaults } = await import('@outpost/agent/sim/sim-faults');
  const fleet = await startFleet({
    server: serverUrl,
    tokens: issued.map(({ token }) => token),
    prefixes: issued.map(({ site }) => site.code),
    timezones: issued.map(({ site }) => site.timezone),
    devices,
    seed: DEMO_FLEET_SEED,
    variety: true,
    workday: true,
    failureRate,
    faults: options.faults ? parseSimFaults(options.faults, DEMO_FAULTS) : DEMO_FAULTS,
    identities: readIdentities(dataDir),
  });
  keepIdentities(dataDir, fleet);
  return fleet;
}
