import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { UploadedFile } from '@outpost/contract/files';
import { deploymentPackages, files, packageStepFiles, packageSteps } from '../../db/schema/index';
import { firstOrThrow } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inTenant } from '../../lib/scope';
import type { TenantScope } from '../../lib/scope';

export type FileRow = typeof files.$inferSelect;

// Files belong to the tenant (no site): every read goes through the tenant scope, so another
// tenant's file is simply not found.

export async function findFile(
  db: Executor,
  scope: TenantScope,
  id: number,
  opts: { lock?: boolean } = {},
): Promise<FileRow | null> {
  const query = db
    .select()
    .from(files)
    .where(and(inTenant(files, scope), eq(files.id, id)))
    .limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ?? null;
}

export async function findFilesByIds(db: Executor, scope: TenantScope, ids: number[]): Promise<FileRow[]> {
  if (ids.length === 0) {
    return [];
  }
  return db
    .select()
    .from(files)
    .where(and(inTenant(files, scope), inArray(files.id, ids)));
}

export async function findFileBySha256(
  db: Executor,
  scope: TenantScope,
  sha256: string,
): Promise<FileRow | null> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(inTenant(files, scope), eq(files.sha256, sha256)))
    .limit(1);
  return row ?? null;
}

export async function insertFile(tx: Executor, values: typeof files.$inferInsert): Promise<FileRow> {
  return firstOrThrow(await tx.insert(files).values(values).returning(), 'insert file');
}

export async function deleteFile(tx: Executor, scope: TenantScope, id: number): Promise<void> {
  await tx.delete(files).where(and(inTenant(files, scope), eq(files.id, id)));
}

/** The first saved step that uses the file, with its package, or null. */
export async function findFileUse(
  db: Executor,
  fileId: number,
): Promise<{ stepName: string; packageName: string } | null> {
  const [row] = await db
    .select({ stepName: packageSteps.stepName, packageName: deploymentPackages.name })
    .from(packageStepFiles)
    .innerJoin(packageSteps, eq(packageSteps.id, packageStepFiles.stepId))
    .innerJoin(deploymentPackages, eq(deploymentPackages.id, packageSteps.packageId))
    .where(eq(packageStepFiles.fileId, fileId))
    .limit(1);
  return row ?? null;
}

export function toUploadedFile(row: FileRow): UploadedFile {
  return {
    id: row.id,
    originalFilename: row.originalFilename,
    size: row.sizeBytes,
    sha256: row.sha256,
    content_type: row.contentType,
    created_at: row.createdAt.toISOString(),
    uploaded_by_name: row.uploadedByName,
  };
}

/** The bytes and the number of files the tenant keeps (its storage usage, SECURITY.md R2-14). */
export async function storageUsed(
  db: Executor,
  scope: TenantScope,
): Promise<{ bytes: number; files: number }> {
  const [row] = await db
    .select({ bytes: sql<string>`coalesce(sum(${files.sizeBytes}), 0)`, files: count() })
    .from(files)
    .where(inTenant(files, scope));
  return { bytes: Number(row?.bytes ?? 0), files: row?.files ?? 0 };
}
