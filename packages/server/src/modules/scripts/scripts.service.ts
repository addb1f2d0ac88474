import { paginate } from '@outpost/contract/envelope';
import type { ListData } from '@outpost/contract/envelope';
import { scriptMessages as messages } from '@outpost/contract/scripts';
import type {
  ScriptCategory,
  ScriptDetail,
  ScriptInput,
  ScriptListQuery,
  ScriptSummary,
  ScriptVersionDetail,
  ScriptVersionSummary,
} from '@outpost/contract/scripts';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { notFound } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { assertMayChange, assertNameFree, editorOf, loadOr404 } from './script-access';
import {
  assertValidScript,
  auditFields,
  fieldsOf,
  toDetail,
  toParamView,
  toStoredParams,
  toSummary,
} from './script-fields';
import { createScriptRunsService } from './script-runs.service';
import type { ScriptRunner } from './script-runner';
import { createScriptTransferService } from './script-transfer.service';
import {
  deleteScript,
  findVersion,
  insertScript,
  listCategories,
  listScripts,
  listVersions,
  updateScript,
} from './scripts.queries';

// The script library (docs/product/scripts.md). Scripts belong to the tenant and are shared by
// all its sites, as a shared package is (SECURITY.md R2-5): every member reads and runs them
// (on the devices of their sites); only members with access to all sites create, change, import
// or delete them. Every change is a new version and an audit entry with secrets masked.

export type ScriptsServiceDeps = {
  db: Db;
  /** seals secret parameters' defaults (createSecretBox(serverSecret, 'scripts')) */
  box: SecretBox;
  /** writes a run's job (the deployments module implements it) */
  runner: ScriptRunner;
};

export function createScriptsService(deps: ScriptsServiceDeps) {
  const { db, box } = deps;

  return {
    async list(ctx: RequestContext, query: ScriptListQuery): Promise<ListData<ScriptSummary>> {
      const { rows, total } = await listScripts(db, ctx, query);
      return { data: rows.map(toSummary), pagination: paginate(query.page, query.limit, total) };
    },

    async categories(ctx: RequestContext): Promise<ScriptCategory[]> {
      return listCategories(db, ctx);
    },

    async get(ctx: RequestContext, id: number): Promise<ScriptDetail> {
      return toDetail(await loadOr404(db, ctx, id));
    },

    async create(ctx: RequestContext, input: ScriptInput): Promise<ScriptDetail> {
      assertMayChange(ctx);
      assertValidScript(input);
      return db.transaction(async (tx) => {
        await assertNameFree(tx, ctx, input.name);
        const fields = fieldsOf(input, toStoredParams(input.params, [], box));
        const row = await insertScript(tx, ctx, fields, editorOf(ctx), input.change_note || null);
        await writeAudit(tx, ctx, {
          action: 'script.create',
          resourceType: 'script',
          resourceId: row.id,
          details: `Created script ${row.name}`,
          newValues: auditFields(fields),
        });
        return toDetail(row);
      });
    },

    async update(ctx: RequestContext, id: number, input: ScriptInput): Promise<ScriptDetail> {
      assertMayChange(ctx);
      assertValidScript(input);
      return db.transaction(async (tx) => {
        const before = await loadOr404(tx, ctx, id, true);
        await assertNameFree(tx, ctx, input.name, id);
        const fields = fieldsOf(input, toStoredParams(input.params, before.params, box));
        const row = await updateScript(tx, id, fields, editorOf(ctx), input.change_note || null);
        await writeAudit(tx, ctx, {
          action: 'script.update',
          resourceType: 'script',
          resourceId: id,
          details: `Updated script ${row.name} to version ${row.version}`,
          oldValues: { version: before.version, ...auditFields(before) },
          newValues: { version: row.version, ...auditFields(fields), change_note: input.change_note ?? null },
        });
        return toDetail(row);
      });
    },

    async remove(ctx: RequestContext, id: number): Promise<void> {
      assertMayChange(ctx);
      await db.transaction(async (tx) => {
        const row = await loadOr404(tx, ctx, id, true);
        await deleteScript(tx, id);
        await writeAudit(tx, ctx, {
          action: 'script.delete',
          resourceType: 'script',
          resourceId: id,
          details: `Deleted script ${row.name}`,
          oldValues: { version: row.version, ...auditFields(row) },
        });
      });
    },

    async versions(ctx: RequestContext, id: number): Promise<ScriptVersionSummary[]> {
      await loadOr404(db, ctx, id);
      return (await listVersions(db, id)).map((v) => ({
        version: v.version,
        created_at: v.createdAt.toISOString(),
        created_by_name: v.createdByName,
        change_note: v.changeNote,
      }));
    },

    async version(ctx: RequestContext, id: number, version: number): Promise<ScriptVersionDetail> {
      await loadOr404(db, ctx, id);
      const v = await findVersion(db, id, version);
      if (!v) {
        throw notFound(messages.versionNotFound, 'VERSION_NOT_FOUND');
      }
      return {
        version: v.version,
        created_at: v.createdAt.toISOString(),
        created_by_name: v.createdByName,
        change_note: v.changeNote,
        name: v.name,
        description: v.description,
        category: v.category,
        language: v.language,
        os: v.os,
        body: v.body,
        params: v.params.map(toParamView),
        timeout_seconds: v.timeoutSeconds,
      };
    },

    ...createScriptTransferService({ db, box }),
    ...createScriptRunsService(deps),
  };
}

export type ScriptsService = ReturnType<typeof createScriptsService>;
