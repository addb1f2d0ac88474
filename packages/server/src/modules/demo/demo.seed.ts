import type { Db } from '../../db/client';
import { insertSites } from '../sites/sites.service';
import { addMember, countTenants, createTenant } from '../tenants/tenants.service';
import type { BlobStore } from '../files/blob-store';
import { seedDemoPackages } from '../packages/packages.seed';
import { seedDemoScripts } from '../scripts/scripts.seed';

export const DEMO = {
  tenantName: 'Acme Corp',
  secondTenantName: 'Globex',
  adminEmail: 'admin@acme.example',
  techEmail: 'tech@acme.example',
} as const;

export type DemoResult = { acmeTenantId: number; globexTenantId: number; siteIds: number[] };

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

/**
 * The embedded demo (OUTPOST_DEMO=1, the default): created once, on an empty database.
 * Later areas add their own demo data through the hooks in main.ts.
 */
export async function seedDemo(
  db: Db,
  // The blob store for the demo's uploaded file: the server's own (BLOB_DIR).
  options: { blobStore: BlobStore },
): Promise<DemoResult | null> {
  if ((await countTenants(db)) > 0) {
    return null;
  }
  const { tenant: acme, admin: acmeAdmin } = await createTenant(db, {
    name: DEMO.tenantName,
    plan: 'Professional',
    maxAgents: 100,
    licenseExpiry: new Date(Date.now() + YEAR_MS),
    adminEmail: DEMO.adminEmail,
    adminName: 'Alex Morgan',
  });
  await addMember(db, { tenantId: acme.id, email: DEMO.techEmail, name: 'Taylor Chen', role: 'user' });
  const { tenant: globex, admin: globexAdmin } = await createTenant(db, {
    name: DEMO.secondTenantName,
    plan: 'Standard',
    maxAgents: 25,
    licenseExpiry: new Date(Date.now() + YEAR_MS / 2),
    adminEmail: 'admin@globex.example',
    adminName: 'Hank Scorpio',
  });
  await addMember(db, { tenantId: globex.id, email: DEMO.adminEmail, name: 'Alex Morgan', role: 'user' });
  const created = await insertSites(db, [
    {
      tenantId: acme.id,
      siteName: 'Headquarters',
      siteCode: 'HQ',
      city: 'New York',
      country: 'United States',
      timezone: 'America/New_York',
    },
    {
      tenantId: acme.id,
      siteName: 'London Office',
      siteCode: 'LON1',
      city: 'London',
      country: 'United Kingdom',
      timezone: 'Europe/London',
    },
    {
      tenantId: acme.id,
      siteName: 'Distribution Center',
      siteCode: 'DC1',
      city: 'Chicago',
      country: 'United States',
      timezone: 'America/Chicago',
    },
  ]);
  await seedDemoPackages(db, {
    tenantId: acme.id,
    userId: acmeAdmin.id,
    userName: acmeAdmin.name ?? acmeAdmin.email,
    blobStore: options.blobStore,
  });
  // the script library (docs/product/scripts.md): the same everyday scripts for both tenants
  for (const [tenantId, user] of [
    [acme.id, acmeAdmin],
    [globex.id, globexAdmin],
  ] as const) {
    await seedDemoScripts(db, { tenantId, userId: user.id, userName: user.name ?? user.email });
  }
  return { acmeTenantId: acme.id, globexTenantId: globex.id, siteIds: created.map((s) => s.id) };
}
