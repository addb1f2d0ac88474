// A type-only import is erased at build time: the simulator itself is loaded with import() below.
import type { Fleet } from '@outpost/agent/sim/fleet';
import type { Db } from '../../db/client';
import { hashSecret, newEnrollmentToken, tokenPrefixOf } from '../agents/agent-secrets';
import { findTenantIdByName, listFirstSites, replaceEnrollmentTokens } from './demo.queries';
import { DEMO } from './demo.seed';

const DEMO_TOKEN_NAME = 'Demo fleet';

/**
 * The embedded demo's living fleet: simulated devices spread over the demo tenant's sites,
 * enrolled and connected over the server's own HTTP and websocket port. The server makes its own
 * enrolment tokens, one per site, replacing the previous run's; the fixed seed re-enrols into the
 * same device records on every start. The simulator is loaded only here, so a server without the
 * demo fleet never loads it.
 */
export async function startDemoFleet(db: Db, serverUrl: string, devices: number): Promise<Fleet | null> {
  const tenantId = await findTenantIdByName(db, DEMO.tenantName);
  if (tenantId === null || devices <= 0) {
    return null;
  }
  const demoSites = await listFirstSites(db, tenantId, 3);
  if (demoSites.length === 0) {
    return null;
  }
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
  return startFleet({
    server: serverUrl,
    tokens: issued.map(({ token }) => token),
    prefixes: issued.map(({ site }) => site.code),
    devices,
    seed: 2026,
    variety: true,
  });
}
