import { eq } from 'drizzle-orm';
import type { RemoteAccessSettings } from '@outpost/contract/remote-access';
import type { Executor, Reader } from '../../lib/db';
import { tenantRemoteAccess } from '../../db/schema';

// docs/product/remote-access.md#settings: the one writer of tenant_remote_access.

export async function findRemoteAccess(db: Reader, tenantId: number): Promise<RemoteAccessSettings | null> {
  const [row] = await db
    .select({ settings: tenantRemoteAccess.settings })
    .from(tenantRemoteAccess)
    .where(eq(tenantRemoteAccess.tenantId, tenantId));
  return row?.settings ?? null;
}

export async function saveRemoteAccess(
  tx: Executor,
  tenantId: number,
  settings: RemoteAccessSettings,
  by: { userId: number; name: string | null },
): Promise<void> {
  const values = { settings, updatedBy: by.userId, updatedByName: by.name, updatedAt: new Date() };
  await tx
    .insert(tenantRemoteAccess)
    .values({ tenantId, ...values })
    .onConflictDoUpdate({ target: tenantRemoteAccess.tenantId, set: values });
}
