import { and, desc, eq, sql } from 'drizzle-orm';
import type { EnrollmentToken } from '@outpost/contract/agents';
import type { Db } from '../../db/client';
import { devices, enrollmentTokens, sites } from '../../db/schema/index';

type Reader = Pick<Db, 'select'>;

const tokenColumns = {
  id: enrollmentTokens.id,
  name: enrollmentTokens.name,
  siteId: enrollmentTokens.siteId,
  siteName: sites.siteName,
  tokenPrefix: enrollmentTokens.tokenPrefix,
  createdAt: enrollmentTokens.createdAt,
  expiresAt: enrollmentTokens.expiresAt,
  revokedAt: enrollmentTokens.revokedAt,
  lastUsedAt: enrollmentTokens.lastUsedAt,
  useCount: enrollmentTokens.useCount,
  createdByName: enrollmentTokens.createdByName,
};

type TokenRow = {
  id: number;
  name: string | null;
  siteId: number | null;
  siteName: string | null;
  tokenPrefix: string;
  createdAt: Date;
  expiresAt: Date | null;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
  useCount: number;
  createdByName: string | null;
};

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function tokenState(t: Pick<TokenRow, 'expiresAt' | 'revokedAt'>, now = new Date()) {
  if (t.revokedAt) {
    return 'revoked' as const;
  }
  if (t.expiresAt && t.expiresAt <= now) {
    return 'expired' as const;
  }
  return 'active' as const;
}

export function toEnrollmentToken(r: TokenRow): EnrollmentToken {
  return {
    id: r.id,
    name: r.name,
    site_id: r.siteId,
    site_name: r.siteName,
    token_prefix: r.tokenPrefix,
    state: tokenState(r),
    created_at: r.createdAt.toISOString(),
    expires_at: iso(r.expiresAt),
    revoked_at: iso(r.revokedAt),
    last_used_at: iso(r.lastUsedAt),
    use_count: r.useCount,
    created_by_name: r.createdByName,
  };
}

export async function listEnrollmentTokens(db: Reader, tenantId: number): Promise<EnrollmentToken[]> {
  const rows = await db
    .select(tokenColumns)
    .from(enrollmentTokens)
    .leftJoin(sites, eq(sites.id, enrollmentTokens.siteId))
    .where(eq(enrollmentTokens.tenantId, tenantId))
    .orderBy(desc(enrollmentTokens.createdAt), desc(enrollmentTokens.id));
  return rows.map(toEnrollmentToken);
}

export async function findEnrollmentToken(
  db: Reader,
  tenantId: number,
  id: number,
): Promise<EnrollmentToken | null> {
  const [row] = await db
    .select(tokenColumns)
    .from(enrollmentTokens)
    .leftJoin(sites, eq(sites.id, enrollmentTokens.siteId))
    .where(and(eq(enrollmentTokens.tenantId, tenantId), eq(enrollmentTokens.id, id)));
  return row ? toEnrollmentToken(row) : null;
}

export async function findTokenByHash(db: Reader, tokenHash: string) {
  const [row] = await db
    .select()
    .from(enrollmentTokens)
    .where(eq(enrollmentTokens.tokenHash, tokenHash))
    .limit(1);
  return row ?? null;
}

// Serial numbers some vendors ship on every board; they identify nothing.
const GENERIC_SERIALS = new Set([
  '',
  '0',
  'none',
  'default string',
  'to be filled by o.e.m.',
  'system serial number',
  'not specified',
  'not applicable',
  '0123456789',
]);

export const isUsableSerial = (serial: string | null | undefined): serial is string =>
  !!serial && !GENERIC_SERIALS.has(serial.trim().toLowerCase());

/** The tenant's existing device for the same machine (machine id first, then serial number). */
export async function findReEnrollingDevice(
  db: Reader,
  tenantId: number,
  machineId: string | null | undefined,
  serialNumber: string | null | undefined,
): Promise<{ id: number; deviceGuid: string } | null> {
  const cols = { id: devices.id, deviceGuid: devices.deviceGuid };
  if (machineId) {
    const [byMachine] = await db
      .select(cols)
      .from(devices)
      .where(and(eq(devices.tenantId, tenantId), eq(devices.machineId, machineId)))
      .limit(1);
    if (byMachine) {
      return byMachine;
    }
  }
  if (isUsableSerial(serialNumber)) {
    const [bySerial] = await db
      .select(cols)
      .from(devices)
      .where(
        and(
          eq(devices.tenantId, tenantId),
          sql`lower(${devices.serialNumber}) = ${serialNumber.trim().toLowerCase()}`,
        ),
      )
      .limit(1);
    if (bySerial) {
      return bySerial;
    }
  }
  return null;
}

/** What an agent's socket upgrade is checked against: the device of a guid and its secret's hash. */
export async function findAgentCredentials(db: Reader, deviceGuid: string) {
  const [row] = await db
    .select({
      id: devices.id,
      tenantId: devices.tenantId,
      siteId: devices.siteId,
      deviceGuid: devices.deviceGuid,
      secretHash: devices.secretHash,
    })
    .from(devices)
    .where(eq(devices.deviceGuid, deviceGuid))
    .limit(1);
  return row ?? null;
}
