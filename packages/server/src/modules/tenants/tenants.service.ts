import { asc, count, eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { ROLES } from '@outpost/contract/auth';
import type { Db } from '../../db/client';
import { tenants, users } from '../../db/schema/index';
import { HttpError } from '../../lib/errors';

// Tenant provisioning, used by the admin CLI and the embedded demo; not exposed over HTTP.

export const NewTenant = z.object({
  name: z.string().trim().min(1, '--name is required'),
  plan: z.string().trim().min(1).default('Standard'),
  maxAgents: z.coerce
    .number()
    .int()
    .positive('--max-agents must be a positive whole number')
    .nullable()
    .default(null),
  licenseExpiry: z.coerce
    .date({ error: '--license-expiry must be a date such as 2027-12-31' })
    .nullable()
    .default(null),
  adminEmail: z.email('--admin-email must be an e-mail address'),
  adminName: z.string().trim().min(1).nullable().default(null),
});
export type NewTenant = z.input<typeof NewTenant>;

export const NewMember = z.object({
  tenantId: z.coerce.number().int().positive('--tenant must be a tenant id'),
  email: z.email('--email must be an e-mail address'),
  name: z.string().trim().min(1).nullable().default(null),
  role: z.enum(ROLES, { error: '--role must be user or tenant_admin' }).default('user'),
});
export type NewMember = z.input<typeof NewMember>;

export async function createTenant(db: Db, input: NewTenant) {
  const t = NewTenant.parse(input);
  return db.transaction(async (tx) => {
    const [tenant] = await tx
      .insert(tenants)
      .values({ tenantName: t.name, plan: t.plan, maxAgents: t.maxAgents, licenseExpiry: t.licenseExpiry })
      .returning();
    if (!tenant) {
      throw new Error('tenant insert returned nothing');
    }
    const [admin] = await tx
      .insert(users)
      .values({
        tenantId: tenant.id,
        email: t.adminEmail.toLowerCase(),
        name: t.adminName,
        role: 'tenant_admin',
      })
      .returning();
    return { tenant, admin: admin! };
  });
}

export async function addMember(db: Db, input: NewMember) {
  const m = NewMember.parse(input);
  const [tenant] = await db.select({ id: tenants.id }).from(tenants).where(eq(tenants.id, m.tenantId));
  if (!tenant) {
    throw new HttpError(404, `No tenant with id ${m.tenantId}`);
  }
  const [user] = await db
    .insert(users)
    .values({ tenantId: m.tenantId, email: m.email.toLowerCase(), name: m.name, role: m.role })
    .onConflictDoNothing()
    .returning();
  if (!user) {
    throw new HttpError(409, `${m.email} is already a member of tenant ${m.tenantId}`);
  }
  return user;
}

export async function listTenantsWithCounts(db: Db) {
  return db
    .select({
      id: tenants.id,
      tenantName: tenants.tenantName,
      plan: tenants.plan,
      maxAgents: tenants.maxAgents,
      licenseExpiry: tenants.licenseExpiry,
      users: count(users.id),
    })
    .from(tenants)
    .leftJoin(users, eq(users.tenantId, tenants.id))
    .groupBy(tenants.id)
    .orderBy(asc(tenants.id));
}

export async function countTenants(db: Db): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(tenants);
  return row?.n ?? 0;
}
