import { and, eq, inArray } from 'drizzle-orm';
import type { UploadedFile } from '@outpost/contract/files';
import type { Db } from '../../db/client';
import { deploymentPackages, files, packageStepFiles, packageSteps } from '../../db/schema/index';

/** A database handle or an open transaction: queries work on both. */
export type Executor = Pick<Db, 'select' | 'insert' | 'update' | 'delete' | 'execute'>;

export type FileRow = typeof files.$inferSelect;

// Every read goes through the tenant: another tenant's file is simply not found.
const inTenant = (tenantId: number, id: number) => and(eq(files.tenantId, tenantId), eq(files.id, id));

export async function findFile(db: Executor, tenantId: number, id: number): Promise<FileRow | null> {
  const [row] = await db.select().from(files).where(inTenant(tenantId, id)).limit(1);
  return row ?? null;
}

export async function findFilesByIds(db: Executor, tenantId: number, ids: number[]): Promise<FileRow[]> {
  if (ids.length === 0) {
    return [];
  }
  return db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), inArray(files.id, ids)));
}

export async function findFileBySha256(
  db: Executor,
  tenantId: number,
  sha256: string,
): Promise<FileRow | null> {
  const [row] = await db
    .select()
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.sha256, sha256)))
    .limit(1);
  return row ?? null;
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
