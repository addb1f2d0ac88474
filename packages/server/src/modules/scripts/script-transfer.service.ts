import { SCRIPT_EXPORT_FORMAT, ScriptInput, scriptMessages as messages } from '@outpost/contract/scripts';
import type { ScriptExport, ScriptImportBody, ScriptImportResult } from '@outpost/contract/scripts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { badRequest, HttpError } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import { assertMayChange, editorOf } from './script-access';
import { assertValidScript, auditFields, fieldsOf, toStoredParams } from './script-fields';
import { insertScript, lowerNames, scriptsByIds } from './scripts.queries';
import type { ScriptRow } from './scripts.queries';

// Export and import of scripts (docs/product/scripts.md#import-and-export): a JSON file of the
// format SCRIPT_EXPORT_FORMAT without secret values; an import adds every script of the file or
// none, a taken name becoming "<name> (imported)", "<name> (imported 2)", …

const exportOf = (r: ScriptRow): ScriptExport['scripts'][number] => ({
  name: r.name,
  description: r.description,
  category: r.category,
  language: r.language,
  os: r.os,
  body: r.body,
  timeout_seconds: r.timeoutSeconds,
  params: r.params.map((p) => ({
    name: p.name,
    label: p.label,
    type: p.type,
    required: p.required,
    default: p.type === 'secret' ? null : p.default,
    options: p.options,
    min: p.min,
    max: p.max,
    pattern: p.pattern,
  })),
});

/** A free name: the name itself, else "<name> (imported)", "<name> (imported 2)", … */
export function freeName(name: string, taken: Set<string>): string {
  const candidates = [name, `${name} (imported)`];
  for (let n = 2; candidates.length < 1000; n++) {
    candidates.push(`${name} (imported ${n})`);
  }
  const free = candidates.find((c) => !taken.has(c.toLowerCase())) ?? `${name} (${crypto.randomUUID()})`;
  taken.add(free.toLowerCase());
  return free;
}

/** Each script of the file checked; the first problem is a 400 naming the script and the field. */
function parseScripts(body: z.infer<typeof ScriptImportBody>): ScriptInput[] {
  if (body.format !== SCRIPT_EXPORT_FORMAT) {
    throw badRequest(messages.badFormat, 'IMPORT_FORMAT');
  }
  if (body.scripts.length === 0) {
    throw badRequest(messages.emptyImport, 'IMPORT_EMPTY');
  }
  return body.scripts.map((raw, i) => {
    const name = typeof raw.name === 'string' && raw.name.trim() ? raw.name.trim() : null;
    const parsed = ScriptInput.omit({ change_note: true }).safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw badRequest(
        messages.importProblem(i, name, issue?.path.join('.') ?? '', issue?.message ?? 'Invalid value'),
        'IMPORT_INVALID',
      );
    }
    try {
      assertValidScript(parsed.data);
    } catch (err) {
      if (err instanceof HttpError) {
        throw badRequest(messages.importProblem(i, name, '', err.message), 'IMPORT_INVALID');
      }
      throw err;
    }
    return { ...parsed.data, name: parsed.data.name.slice(0, 100) };
  });
}

export function createScriptTransferService({ db, box }: { db: Db; box: SecretBox }) {
  return {
    async exportScripts(ctx: RequestContext, ids: number[] | null): Promise<ScriptExport> {
      const rows = await scriptsByIds(db, ctx, ids);
      return {
        format: SCRIPT_EXPORT_FORMAT,
        exported_at: new Date().toISOString(),
        scripts: rows.map(exportOf),
      };
    },

    async importScripts(
      ctx: RequestContext,
      body: z.infer<typeof ScriptImportBody>,
    ): Promise<ScriptImportResult> {
      assertMayChange(ctx);
      const inputs = parseScripts(body);
      return db.transaction(async (tx) => {
        const taken = await lowerNames(tx, ctx);
        const imported: ScriptImportResult['imported'] = [];
        const audited: unknown[] = [];
        for (const input of inputs) {
          const fields = fieldsOf(
            { ...input, name: freeName(input.name, taken) },
            toStoredParams(input.params, [], box),
          );
          const row = await insertScript(tx, ctx, fields, editorOf(ctx), 'Imported');
          imported.push({ id: row.id, name: row.name });
          audited.push({ id: row.id, ...auditFields(fields) });
        }
        await writeAudit(tx, ctx, {
          action: 'script.import',
          resourceType: 'script',
          resourceId: imported.length === 1 ? imported[0]?.id : null,
          details:
            `Imported ${imported.length} script${imported.length === 1 ? '' : 's'}: ${imported.map((s) => s.name).join(', ')}`.slice(
              0,
              2000,
            ),
          newValues: { scripts: audited },
        });
        return { imported };
      });
    },
  };
}
