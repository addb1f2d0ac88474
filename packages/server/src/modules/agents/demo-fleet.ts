import { and, asc, eq, like } from 'drizzle-orm';
import { startFleet } from '@outpost/agent/sim/fleet';
import type { Fleet } from '@outpost/agent/sim/fleet';
import type { Db } from '../../db/client';
import { enrollmentTokens, sites, tenants } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';
import { hashSecret, newEnrollmentToken, tokenPrefixOf } from './agent-secrets';

const DEMO_TOKEN_NAME = 'Demo fleet';

/**
 * The embedded demo's living fleet (issue 3 §5): simulated devices spread over the demo tenant's
 * sites, enrolled and connected over the server's own HTTP and websocket port. The server makes
 * its own enrolment tokens, one per site, replacing the previous run's; the fixed seed re-enrols
 * into the same device records on every start.
 */
export async function startDemoFleet(db: Db, serverUrl: string, devices: number): Promise<Fleet | null> {
  const [acme] = await db
    .select({ id: tenants.id })
    .from(tenants)
    .where(eq(tenants.tenantName, DEMO.tenantName))
    .limit(1);
  if (!acme || devices <= 0) {
    return null;
  }
  const demoSites = await db
    .select({ id: sites.id, code: sites.siteCode })
    .from(sites)
    .where(eq(sites.tenantId, acme.id))
    .orderBy(asc(sites.id))
    .limit(3);
  if (demoSites.length === 0) {
    return null;
  }
  await db
    .delete(enrollmentTokens)
    .where(and(eq(enrollmentTokens.tenantId, acme.id), like(enrollmentTokens.name, `${DEMO_TOKEN_NAME}%`)));
  const tokens: string[] = [];
  for (const site of demoSites) {
    const token = newEnrollmentToken();
    await db.insert(enrollmentTokens).values({
      tenantId: acme.id,
      name: `${DEMO_TOKEN_NAME} (${site.code})`,
      siteId: site.id,
      tokenHash: hashSecret(token),
      tokenPrefix: tokenPrefixOf(token),
      createdByName: 'Outpost demo',
    });
    tokens.push(token);
  }
  return startFleet({
    server: serverUrl,
    tokens,
    prefixes: demoSites.map((s) => s.code),
    devices,
    seed: 2026,
    variety: true,
  });
}
