import { and, asc, count, desc, eq, ilike, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { PackageStep, PackageSummary } from '@outpost/contract/packages';
import { deploymentPackages, packageStepFiles, packageSteps, sites } from '../../db/schema/index';
import { firstOrThrow } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inScopeOrShared, inTenant } from '../../lib/scope';
import type { Scope, TenantScope } from '../../lib/scope';

export type PackageRow = typeof deploymentPackages.$inferSelect;
/** The package's newest job: when it was made and whether the package changed after its copy. */
export type LastDeployment = { lastDeployedAt: Date | null; isChangedSinceDeploy: boolean };
export type StepRow = typeof packageSteps.$inferSelect;

export type PackageFilters = {
  page: number;
  limit: number;
  search?: string;
  target_os?: PackageRow['targetOs'];
  is_template?: boolean;
};

// Packages belong to the tenant and are shared with all sites or owned by one (SECURITY.md R2-5):
// every package read goes through inScopeOrShared, so another tenant's package, and for a
// site-limited caller another site's package, is not found. Steps are reached through their
// (scoped) package.

// Written out in full: drizzle leaves columns unqualified inside a single-table select.
const stepCount = sql<number>`(select count(*)::int from "package_steps" as "ps" where "ps"."package_id" = "deployment_packages"."id")`;

// The newest job made from the package (deployment_jobs_package_idx): its time, and whether the
// package changed after that job took its copy. Jobs are written by the deployments module.
const lastDeployedAt = sql<Date | null>`(select max("dj"."created_at") from "deployment_jobs" as "dj" where "dj"."package_id" = "deployment_packages"."id")`;
const isChangedSinceDeploy = sql<boolean>`coalesce("deployment_packages"."updated_at" > (select "dj"."package_updated_at" from "deployment_jobs" as "dj" where "dj"."package_id" = "deployment_packages"."id" order by "dj"."created_at" desc, "dj"."id" desc limit 1), false)`;
const deployColumns = { lastDeployedAt, isChangedSinceDeploy };

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function listWhere(scope: Scope, f: PackageFilters): SQL | undefined {
  const term = f.search ? `%${escapeLike(f.search)}%` : null;
  return and(
    inScopeOrShared(deploymentPackages, scope),
    term ? or(ilike(deploymentPackages.name, term), ilike(deploymentPackages.description, term)) : undefined,
    f.target_os ? eq(deploymentPackages.targetOs, f.target_os) : undefined,
    f.is_template === undefined ? undefined : eq(deploymentPackages.isTemplate, f.is_template),
  );
}

export async function listPackages(
  db: Executor,
  scope: Scope,
  f: PackageFilters,
): Promise<{ rows: (PackageRow & LastDeployment & { stepCount: number })[]; total: number }> {
  const where = listWhere(scope, f);
  const [totalRow] = await db.select({ n: count() }).from(deploymentPackages).where(where);
  const rows = await db
    .select({ pkg: deploymentPackages, stepCount, ...deployColumns })
    .from(deploymentPackages)
    .where(where)
    .orderBy(desc(deploymentPackages.createdAt), desc(deploymentPackages.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return {
    rows: rows.map((r) => ({ ...r.pkg, stepCount: r.stepCount, ...lastDeploymentOf(r) })),
    total: totalRow?.n ?? 0,
  };
}

const lastDeploymentOf = (r: { lastDeployedAt: Date | string | null; isChangedSinceDeploy: boolean }) => ({
  // a raw subquery's timestamp arrives as text from node-postgres and PGlite alike
  lastDeployedAt: r.lastDeployedAt === null ? null : new Date(r.lastDeployedAt),
  isChangedSinceDeploy: Boolean(r.isChangedSinceDeploy),
});

/** The package's newest job and whether the package changed since (one package, already found). */
export async function lastDeployment(db: Executor, id: number): Promise<LastDeployment> {
  const [row] = await db.select(deployColumns).from(deploymentPackages).where(eq(deploymentPackages.id, id));
  return row ? lastDeploymentOf(row) : { lastDeployedAt: null, isChangedSinceDeploy: false };
}

/** The name of a site of the caller's tenant, null when there is none with this id. */
export async function findSiteName(db: Executor, scope: TenantScope, siteId: number): Promise<string | null> {
  const [row] = await db
    .select({ name: sites.siteName })
    .from(sites)
    .where(and(inTenant(sites, scope), eq(sites.id, siteId)))
    .limit(1);
  return row?.name ?? null;
}

export async function findPackage(
  db: Executor,
  scope: Scope,
  id: number,
  /** true: FOR UPDATE (a change to the package); 'share': FOR SHARE (several readers, no change) */
  opts: { lock?: boolean | 'share' } = {},
): Promise<PackageRow | null> {
  const query = db
    .select()
    .from(deploymentPackages)
    .where(and(inScopeOrShared(deploymentPackages, scope), eq(deploymentPackages.id, id)))
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

export async function countSteps(db: Executor, packageId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(packageSteps)
    .where(eq(packageSteps.packageId, packageId));
  return row?.n ?? 0;
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

/** Which files the new steps use, all in one statement (a package's import or copy). */
export async function insertStepFiles(
  db: Executor,
  rows: { stepId: number; fileId: number }[],
): Promise<void> {
  const unique = [...new Map(rows.map((r) => [`${r.stepId}:${r.fileId}`, r])).values()];
  if (unique.length > 0) {
    await db.insert(packageStepFiles).values(unique);
  }
}

/** Gives the steps the orders 1..n in the given sequence of ids, in one statement. */
export async function writeStepOrder(db: Executor, orderedIds: number[]): Promise<void> {
  if (orderedIds.length === 0) {
    return;
  }
  const ids = sql`${`{${orderedIds.join(',')}}`}::int[]`;
  await db.execute(sql`update "package_steps" as "s"
    set "step_order" = "o"."ord"::int, "updated_at" = now()
    from unnest(${ids}) with ordinality as "o"("id", "ord")
    where "s"."id" = "o"."id"`);
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

/** Inserts many steps in one statement; the rows come back in step order. */
export async function insertSteps(
  tx: Executor,
  values: (typeof packageSteps.$inferInsert)[],
): Promise<StepRow[]> {
  if (values.length === 0) {
    return [];
  }
  const rows = await tx.insert(packageSteps).values(values).returning();
  return rows.sort((a, b) => a.stepOrder - b.stepOrder || a.id - b.id);
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

/** The package's updated_at, as a subquery another table's insert can take (a job's copy time). */
export const packageUpdatedAtOf = (id: number): SQL<Date> =>
  sql<Date>`(select ${deploymentPackages.updatedAt} from ${deploymentPackages} where ${deploymentPackages.id} = ${id})`;

/** Who changed the package (its row or its steps) last. */
export type Editor = { userId: number; name: string };

export async function touchPackage(db: Executor, id: number, by: Editor): Promise<void> {
  await db
    .update(deploymentPackages)
    .set({ updatedAt: sql`now()`, updatedBy: by.userId, updatedByName: by.name })
    .where(eq(deploymentPackages.id, id));
}

const NEVER_DEPLOYED: LastDeployment = { lastDeployedAt: null, isChangedSinceDeploy: false };

export function toSummary(
  row: PackageRow,
  steps: number,
  deploy: LastDeployment = NEVER_DEPLOYED,
): PackageSummary {
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
    site_id: row.siteId,
    updated_by_name: row.updatedByName,
    last_deployed_at: deploy.lastDeployedAt?.toISOString() ?? null,
    is_changed_since_deploy: deploy.isChangedSinceDeploy,
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
    conditions: row.conditions,
  };
}
