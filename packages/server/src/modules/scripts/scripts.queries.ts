import { and, asc, count, desc, eq, ilike, inArray, ne, or, sql } from 'drizzle-orm';
import type { SQL } from 'drizzle-orm';
import type { ScriptCategory, ScriptLanguage, ScriptOs } from '@outpost/contract/scripts';
import { scripts, scriptVersions } from '../../db/schema/index';
import type { StoredScriptParam } from '../../db/schema/scripts';
import { firstOrThrow } from '../../lib/db';
import type { Executor } from '../../lib/db';
import { inTenant } from '../../lib/scope';
import type { TenantScope } from '../../lib/scope';

// The script library's SQL (docs/product/scripts.md#the-library): the only writer of `scripts`
// and `script_versions`. Scripts belong to the tenant (no site); every read is tenant-scoped, so
// another tenant's script is not found.

export type ScriptRow = typeof scripts.$inferSelect;
export type { StoredScriptParam };
export type ScriptVersionRow = typeof scriptVersions.$inferSelect;

/** The fields a saved version carries (the script row holds the current one's). */
export type ScriptFields = {
  name: string;
  description: string;
  category: string;
  language: ScriptLanguage;
  os: ScriptOs;
  body: string;
  params: StoredScriptParam[];
  timeoutSeconds: number;
};

export type Editor = { userId: number; name: string };

export type ScriptFilters = {
  page: number;
  limit: number;
  search?: string;
  category?: string;
  language?: ScriptLanguage;
  os?: ScriptOs;
};

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

function listWhere(scope: TenantScope, f: ScriptFilters): SQL | undefined {
  const term = f.search ? `%${escapeLike(f.search)}%` : null;
  return and(
    inTenant(scripts, scope),
    term
      ? or(ilike(scripts.name, term), ilike(scripts.description, term), ilike(scripts.category, term))
      : undefined,
    f.category !== undefined ? eq(scripts.category, f.category) : undefined,
    f.language ? eq(scripts.language, f.language) : undefined,
    f.os ? eq(scripts.os, f.os) : undefined,
  );
}

export async function listScripts(
  db: Executor,
  scope: TenantScope,
  f: ScriptFilters,
): Promise<{ rows: ScriptRow[]; total: number }> {
  const where = listWhere(scope, f);
  const [totalRow] = await db.select({ n: count() }).from(scripts).where(where);
  const rows = await db
    .select()
    .from(scripts)
    .where(where)
    .orderBy(sql`lower(${scripts.name})`, asc(scripts.id))
    .limit(f.limit)
    .offset((f.page - 1) * f.limit);
  return { rows, total: totalRow?.n ?? 0 };
}

/** Scripts by id in the tenant (export); all of them when `ids` is null. */
export async function scriptsByIds(
  db: Executor,
  scope: TenantScope,
  ids: number[] | null,
): Promise<ScriptRow[]> {
  return db
    .select()
    .from(scripts)
    .where(and(inTenant(scripts, scope), ids === null ? undefined : inArray(scripts.id, ids)))
    .orderBy(sql`lower(${scripts.name})`, asc(scripts.id));
}

export async function findScript(
  db: Executor,
  scope: TenantScope,
  id: number,
  opts: { lock?: boolean } = {},
): Promise<ScriptRow | null> {
  const query = db
    .select()
    .from(scripts)
    .where(and(inTenant(scripts, scope), eq(scripts.id, id)))
    .limit(1);
  const [row] = opts.lock ? await query.for('update') : await query;
  return row ?? null;
}

/** Whether another script of the tenant has this name (case-insensitive). */
export async function nameTaken(
  db: Executor,
  scope: TenantScope,
  name: string,
  exceptId?: number,
): Promise<boolean> {
  const [row] = await db
    .select({ id: scripts.id })
    .from(scripts)
    .where(
      and(
        inTenant(scripts, scope),
        sql`lower(${scripts.name}) = lower(${name})`,
        exceptId === undefined ? undefined : ne(scripts.id, exceptId),
      ),
    )
    .limit(1);
  return row !== undefined;
}

/** The tenant's script names in lower case (import picks free names against them). */
export async function lowerNames(db: Executor, scope: TenantScope): Promise<Set<string>> {
  const rows = await db
    .select({ name: sql<string>`lower(${scripts.name})` })
    .from(scripts)
    .where(inTenant(scripts, scope));
  return new Set(rows.map((r) => r.name));
}

export async function listCategories(db: Executor, scope: TenantScope): Promise<ScriptCategory[]> {
  const rows = await db
    .select({ name: scripts.category, count: count() })
    .from(scripts)
    .where(and(inTenant(scripts, scope), ne(scripts.category, '')))
    .groupBy(scripts.category)
    .orderBy(sql`lower(${scripts.category})`);
  return rows.map((r) => ({ name: r.name, count: Number(r.count) }));
}

/** A new script and its version 1, written together. */
export async function insertScript(
  tx: Executor,
  scope: TenantScope,
  fields: ScriptFields,
  editor: Editor,
  changeNote: string | null,
): Promise<ScriptRow> {
  const row = firstOrThrow(
    await tx
      .insert(scripts)
      .values({
        tenantId: scope.tenantId,
        ...fields,
        version: 1,
        createdBy: editor.userId,
        createdByName: editor.name,
        updatedBy: editor.userId,
        updatedByName: editor.name,
      })
      .returning(),
    'insert script',
  );
  await insertVersion(tx, row, changeNote);
  return row;
}

/** The script's next version (its row locked by the caller) and its version row. */
export async function updateScript(
  tx: Executor,
  id: number,
  fields: ScriptFields,
  editor: Editor,
  changeNote: string | null,
): Promise<ScriptRow> {
  const row = firstOrThrow(
    await tx
      .update(scripts)
      .set({
        ...fields,
        version: sql`${scripts.version} + 1`,
        updatedBy: editor.userId,
        updatedByName: editor.name,
        updatedAt: sql`now()`,
      })
      .where(eq(scripts.id, id))
      .returning(),
    'update script',
  );
  await insertVersion(tx, row, changeNote);
  return row;
}

async function insertVersion(tx: Executor, row: ScriptRow, changeNote: string | null): Promise<void> {
  await tx.insert(scriptVersions).values({
    scriptId: row.id,
    version: row.version,
    tenantId: row.tenantId,
    name: row.name,
    description: row.description,
    category: row.category,
    language: row.language,
    os: row.os,
    body: row.body,
    params: row.params,
    timeoutSeconds: row.timeoutSeconds,
    changeNote,
    createdBy: row.updatedBy,
    createdByName: row.updatedByName,
  });
}

export async function deleteScript(tx: Executor, id: number): Promise<void> {
  await tx.delete(scripts).where(eq(scripts.id, id));
}

export async function setLastRunAt(tx: Executor, id: number): Promise<void> {
  await tx
    .update(scripts)
    .set({ lastRunAt: sql`now()` })
    .where(eq(scripts.id, id));
}

export async function listVersions(db: Executor, scriptId: number): Promise<ScriptVersionRow[]> {
  return db
    .select()
    .from(scriptVersions)
    .where(eq(scriptVersions.scriptId, scriptId))
    .orderBy(desc(scriptVersions.version));
}

export async function findVersion(
  db: Executor,
  scriptId: number,
  version: number,
): Promise<ScriptVersionRow | null> {
  const [row] = await db
    .select()
    .from(scriptVersions)
    .where(and(eq(scriptVersions.scriptId, scriptId), eq(scriptVersions.version, version)))
    .limit(1);
  return row ?? null;
}
