import { formatBytes } from '@outpost/contract/files';
import type { StorageUsage } from '@outpost/contract/files';
import { packageMessages as messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import type { Executor } from '../../lib/db';
import { HttpError } from '../../lib/errors';
import type { TenantScope } from '../../lib/scope';
import { tenantLookup } from '../tenants/tenants.service';
import { storageUsed } from './files.queries';

// Per-organisation storage quota (SECURITY.md R2-14): the tenant's own quota, else the
// instance's TENANT_STORAGE_QUOTA_BYTES. An upload is checked three times, each before anything
// is kept: its declared length before a byte is read, its stream cut at what is left, and its
// size once more with the tenant row locked when it is recorded (two uploads at once cannot both
// take the last room).

/**
 * What a multipart body carries besides the file: its part headers and boundaries and the small
 * fields the files route accepts (10 of at most 1 KiB). A declared length beyond the room left by
 * more than this cannot fit.
 */
export const MULTIPART_ALLOWANCE_BYTES = 64 * 1024;

export const quotaExceeded = (remaining: number, quota: number) =>
  new HttpError(
    413,
    messages.storageQuotaExceeded(formatBytes(Math.max(0, remaining)), formatBytes(quota)),
    'STORAGE_QUOTA_EXCEEDED',
  );

export type UploadRoom = { quota: number; remaining: number };

export function createStorageQuota(db: Db, defaultQuota: number) {
  const quotaOf = async (ex: Executor, tenantId: number, lock: boolean) =>
    (await tenantLookup.storageQuota(ex, tenantId, { lock })) ?? defaultQuota;

  return {
    // Any member may read it: it is shown where they upload (caller's own tenant only).
    async usage(scope: TenantScope): Promise<StorageUsage> {
      const [quota, used] = await Promise.all([quotaOf(db, scope.tenantId, false), storageUsed(db, scope)]);
      return { used_bytes: used.bytes, quota_bytes: quota, file_count: used.files };
    },

    /** What the tenant may still upload, read before the upload starts. */
    async room(scope: TenantScope): Promise<UploadRoom> {
      const [quota, used] = await Promise.all([quotaOf(db, scope.tenantId, false), storageUsed(db, scope)]);
      return { quota, remaining: Math.max(0, quota - used.bytes) };
    },

    /**
     * Inside the transaction that records a stored file: locks the tenant row (uploads of one
     * tenant pass here one at a time) and refuses a file that no longer fits.
     */
    async claim(tx: Executor, scope: TenantScope, size: number): Promise<void> {
      const quota = await quotaOf(tx, scope.tenantId, true);
      const used = await storageUsed(tx, scope);
      if (used.bytes + size > quota) {
        throw quotaExceeded(quota - used.bytes, quota);
      }
    },
  };
}

export type StorageQuota = ReturnType<typeof createStorageQuota>;
