import { z } from 'zod';
import { ROLES } from '@outpost/contract/auth';
import type { Db } from '../../db/client';
import { HttpError } from '../../lib/errors';
import {
  countAllTenants,
  countTenantSites,
  findTenant,
  insertTenant,
  listTenantsWithUserCounts,
  raiseMaxAgents,
  readStorageQuota,
  updateStorageQuota,
} from './tenants.queries';
import { insertMember, insertMemberSites } from '../users/members.service';
import type { Executor } from '../../lib/db';

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
  /** Given: the member sees only these sites (site_access_type 'specific'); omitted: every site. */
  siteIds: z.array(z.coerce.number().int().positive('--sites must be site ids')).optional(),
});
export type NewMember = z.input<typeof NewMember>;

export async function createTenant(db: Db, input: NewTenant) {
  const t = NewTenant.parse(input);
  return db.transaction(async (tx) => {
    const tenant = await insertTenant(tx, {
      tenantName: t.name,
      plan: t.plan,
      maxAgents: t.maxAgents,
      licenseExpiry: t.licenseExpiry,
    });
    const admin = await insertMember(tx, {
      tenantId: tenant.id,
      email: t.adminEmail.toLowerCase(),
      name: t.adminName,
      role: 'tenant_admin',
    });
    if (!admin) {
      throw new Error('the first member of a new tenant cannot already exist');
    }
    return { tenant, admin };
  });
}

export async function addMember(db: Db, input: NewMember) {
  const m = NewMember.parse(input);
  return db.transaction(async (tx) => {
    if (!(await findTenant(tx, m.tenantId))) {
      throw new HttpError(404, `No tenant with id ${m.tenantId}`);
    }
    const user = await insertMember(tx, {
      tenantId: m.tenantId,
      email: m.email.toLowerCase(),
      name: m.name,
      role: m.role,
      siteAccessType: m.siteIds ? 'specific' : 'all',
    });
    if (!user) {
      throw new HttpError(409, `${m.email} is already a member of tenant ${m.tenantId}`);
    }
    if (m.siteIds) {
      const found = await countTenantSites(tx, m.tenantId, m.siteIds);
      if (found !== new Set(m.siteIds).size) {
        throw new HttpError(404, `Not every site in ${m.siteIds.join(', ')} belongs to tenant ${m.tenantId}`);
      }
      await insertMemberSites(tx, user.id, m.siteIds);
    }
    return user;
  });
}

export async function listTenantsWithCounts(db: Db) {
  return listTenantsWithUserCounts(db);
}

export async function countTenants(db: Db): Promise<number> {
  return countAllTenants(db);
}

const SIZE_UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4 };

/** A size as an operator writes it: bytes, or a number with K, M, G or T (1024-based; "GiB" too). */
export function parseByteSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmgt]?)(?:i?b)?\s*$/i.exec(text);
  if (!match) {
    return null;
  }
  const bytes = Math.round(Number(match[1]) * SIZE_UNITS[match[2]!.toLowerCase()]!);
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/**
 * Sets an organisation's storage quota (the admin CLI's `tenant:quota`; SECURITY.md R2-14):
 * "default" (or null) returns it to the instance's TENANT_STORAGE_QUOTA_BYTES.
 */
export async function setStorageQuota(db: Db, input: { tenantId: string; quota: string }) {
  const tenantId = Number(input.tenantId);
  if (!Number.isInteger(tenantId) || tenantId <= 0) {
    throw new HttpError(400, '--tenant must be a tenant id');
  }
  const isDefault = input.quota.trim().toLowerCase() === 'default';
  const quota = isDefault ? null : parseByteSize(input.quota);
  if (!isDefault && quota === null) {
    throw new HttpError(400, '--quota must be a size such as 20GiB or 500MiB, or "default"');
  }
  if (!(await updateStorageQuota(db, tenantId, quota))) {
    throw new HttpError(404, `Tenant ${tenantId} not found`);
  }
  return { tenantId, quota };
}

/**
 * Lookups other modules make inside their own transaction (an upload checks its tenant's quota
 * with the tenant row locked). They take the caller's transaction; they decide nothing.
 */
export const tenantLookup = {
  storageQuota: (tx: Executor, tenantId: number, opts: { lock?: boolean } = {}) =>
    readStorageQuota(tx, tenantId, opts),
};

// The same operations for other modules, bound to one database (a module uses another module
// through its service). Callers pass their own tenant id: no caller reads another tenant.
export function createTenantsService({ db }: { db: Db }) {
  return {
    /** Name, plan and licence of the caller's own tenant (the dashboard's licence panel). */
    async summary(tenantId: number) {
      return findTenant(db, tenantId);
    },
  };
}

export type TenantsService = ReturnType<typeof createTenantsService>;

/** Raises a tenant's agent limit to at least this many (never lowers it; the demo fleet needs room). */
export function raiseAgentLimit(db: Db, tenantId: number, atLeast: number): Promise<void> {
  return raiseMaxAgents(db, tenantId, atLeast);
}
