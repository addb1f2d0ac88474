import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PackageStep, PackageSummary } from '@outpost/contract/packages';
import { deploymentPackages, packageStepFiles, packageSteps } from '../../db/schema/index';
import { firstOrThrow } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inTenant } from '../../lib/scope';
import type { TenantScope } from '../../lib/scope';

export type PackageRow = typeof deploymentPackages.$inferSelect;
export type StepRow = typeof packageSteps.$inferSelect;

export type PackageFilters = {
  page: number;
  limit: number;
  search?: string;
  target_os?: PackageRow['targetOs'];
  is_template?: boolean;
};

// Packages belong to the tenant (no site): every package read goes through the tenant scope,
// so another tenant's package is not found. Steps are reached through their (scoped) package.

// Written out in full: drizzle leaves columns unqualified inside a single-table select.
const stepCount = sql<number>`(select count(*)::int from "package_steps" as "ps" where "ps"."package_id" = "deployment_packages"."id")`;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function listWhere(scope: TenantScope, f: PackageFilters): SQL | undefined {
  const term = f.search ? `%${escapeLike(f.search)}%` : null;
  return and(
    inTenant(deploymentPackages, scope),
    term ? or(ilike(deploymentPackages.name, term), ilike(deploymentPackages.description, term)) : undefined,
    f.target_os ? eq(deploymentPackages.targetOs, f.target_os) : undefined,
    f.is_template === undefined ? undefined : eq(deploymentPackages.isTemplate, f.is_template),
  );
}

export async function listPackages(
  db: Executor,
  scope: TenantScope,
  f: PackageFilters,
): Promise<{ rows: (PackageRow & { stepCount: number })[]; total: number }> {
  const where = listWhere(scope, f);
  const [totalRow] = await db.select({ n: count() }).from(deploymentPackages).where(where);
  const rows = await db
    .select({ pkg: deploymentPackages, stepCount })
    .from(deploymentPackages)
    .where(where)
    .orderBy(desc(deploymentPackages.createdAt), desc(deploymentPackages.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows: rows.map((r) => ({ ...r.pkg, stepCount: r.stepCount })), total: totalRow?.n ?? 0 };
}

export async function findPackage(
  db: Executor,
  scope: TenantScope,
  id: number,
  /** true: FOR UPDATE (a change to the package); 'share': FOR SHARE (several readers, no change) */
  opts: { lock?: boolean | 'share' } = {},
): Promise<PackageRow | null> {
  const query = db
    .select()
    .from(deploymentPackages)
    .where(and(inTenant(deploymentPackages, scope), eq(deploymentPackages.id, id)))
    .limit(1);
  const [row] = opts.lock ? await query.for(opts.lock === 'share' ? 'share' : 'update') : await query;
  return row ?? null;
}

export async function listSteps(db: Executor, packageId: number): Promise<StepRow[]> {
  return db
    .select()
    .from(packageSteps)
    .where(eq(packageSteps.packageId, packageId))
    .orderBy(asc(packageSteps.stepOrder), asc(packageSteps.id));
}

export async function findStep(db: Executor, packageId: number, stepId: number): Promise<StepRow | null> {
  const [row] = await db
    .select()
    .from(packageSteps)
    .where(and(eq(packageSteps.packageId, packageId), eq(packageSteps.id, stepId)))
    .limit(1);
  return row ?? null;
}

export async function nextStepOrder(db: Executor, packageId: number): Promise<number> {
  const [row] = await db
    .select({ max: sql<number>`coalesce(max(${packageSteps.stepOrder}), 0)::int` })
    .from(packageSteps)
    .where(eq(packageSteps.packageId, packageId));
  return (row?.max ?? 0) + 1;
}

/** Records which uploaded files a saved step uses (replacing what it used before). */
export async function replaceStepFiles(db: Executor, stepId: number, fileIds: number[]): Promise<void> {
  await db.delete(packageStepFiles).where(eq(packageStepFiles.stepId, stepId));
  const unique = [...new Set(fileIds)];
  if (unique.length > 0) {
    await db.insert(packageStepFiles).values(unique.map((fileId) => ({ stepId, fileId })));
  }
}

/** Gives the steps the orders 1..n in the given sequence of ids. */
export async function writeStepOrder(db: Executor, orderedIds: number[]): Promise<void> {
  for (const [index, id] of orderedIds.entries()) {
    await db
      .update(packageSteps)
      .set({ stepOrder: index + 1, updatedAt: sql`now()` })
      .where(eq(packageSteps.id, id));
  }
}

export async function insertPackage(
  tx: Executor,
  values: typeof deploymentPackages.$inferInsert,
): Promise<PackageRow> {
  return firstOrThrow(await tx.insert(deploymentPackages).values(values).returning(), 'insert package');
}

/** Updates a package the caller has found (and locked) in its scope. */
export async function updatePackage(
  tx: Executor,
  id: number,
  values: Partial<typeof deploymentPackages.$inferInsert>,
): Promise<PackageRow> {
  const rows = await tx
    .update(deploymentPackages)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(deploymentPackages.id, id))
    .returning();
  return firstOrThrow(rows, 'update package');
}

export async function deletePackage(tx: Executor, id: number): Promise<void> {
  await tx.delete(deploymentPackages).where(eq(deploymentPackages.id, id));
}

export async function insertStep(tx: Executor, values: typeof packageSteps.$inferInsert): Promise<StepRow> {
  return firstOrThrow(await tx.insert(packageSteps).values(values).returning(), 'insert step');
}

/** Updates a step of a package the caller has found (and locked) in its scope. */
export async function updateStep(
  tx: Executor,
  stepId: number,
  values: Partial<typeof packageSteps.$inferInsert>,
): Promise<StepRow> {
  const rows = await tx
    .update(packageSteps)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(packageSteps.id, stepId))
    .returning();
  return firstOrThrow(rows, 'update step');
}

export async function deleteStep(tx: Executor, stepId: number): Promise<void> {
  await tx.delete(packageSteps).where(eq(packageSteps.id, stepId));
}

export async function touchPackage(db: Executor, id: number): Promise<void> {
  await db
    .update(deploymentPackages)
    .set({ updatedAt: sql`now()` })
    .where(eq(deploymentPackages.id, id));
}

export function toSummary(row: PackageRow, steps: number): PackageSummary {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    target_os: row.targetOs,
    os_version_requirement: row.osVersionRequirement,
    architecture: row.architecture,
    package_version: row.packageVersion,
    is_template: row.isTemplate,
    step_count: steps,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    created_by_name: row.createdByName,
  };
}

export function toStep(row: StepRow): PackageStep {
  return {
    id: row.id,
    package_id: row.packageId,
    step_order: row.stepOrder,
    step_name: row.stepName,
    step_type: row.stepType,
    step_details: row.stepDetails,
    fail_deployment_on_error: row.failDeploymentOnError,
    timeout_seconds: row.timeoutSeconds,
    retry_count: row.retryCount,
  };
}
