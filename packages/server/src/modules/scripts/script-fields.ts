import { bodyBytes, languageOsProblem, paramDefinitionsProblem } from '@outpost/contract/script-params';
import { SCRIPT_LIMITS, scriptMessages as messages } from '@outpost/contract/scripts';
import type { ScriptDetail, ScriptInput, ScriptParamView, ScriptSummary } from '@outpost/contract/scripts';
import type { StoredScriptParam } from './scripts.queries';
import { badRequest } from '../../lib/errors';
import type { SecretBox } from '../../lib/secret-box';
import type { ScriptFields, ScriptRow } from './scripts.queries';

// A script's fields between the API and the table (docs/product/scripts.md#secrets): a secret
// parameter's default is sealed before it is stored and never leaves the server; the API and the
// audit trail see `has_default` and "••••" instead.

export const MASK = '••••';

/** The checks the contract's schema cannot make alone; a 400 naming the field. */
export function assertValidScript(input: Pick<ScriptInput, 'language' | 'os' | 'body' | 'params'>): void {
  const osProblem = languageOsProblem(input.language, input.os);
  if (osProblem) {
    throw badRequest(osProblem, 'LANGUAGE_NOT_FOR_OS');
  }
  if (bodyBytes(input.body) > SCRIPT_LIMITS.bodyMaxBytes) {
    throw badRequest(messages.bodyTooLarge, 'BODY_TOO_LARGE');
  }
  const problem = paramDefinitionsProblem(input.params);
  if (problem) {
    throw badRequest(problem.message, 'INVALID_PARAMETER');
  }
}

/**
 * The parameters as stored. A secret's new default is sealed; `keep_secret` with no new default
 * keeps the sealed value the same-named secret had before (none when it had none).
 */
export function toStoredParams(
  input: ScriptInput['params'],
  before: readonly StoredScriptParam[],
  box: SecretBox,
): StoredScriptParam[] {
  return input.map((p) => {
    const secret = p.type === 'secret';
    const previous = before.find((b) => b.name === p.name && b.type === 'secret');
    const sealedDefault = !secret
      ? null
      : p.default !== null && p.default !== ''
        ? box.seal(p.default)
        : p.keep_secret
          ? (previous?.sealedDefault ?? null)
          : null;
    return {
      name: p.name,
      label: p.label,
      type: p.type,
      required: p.required,
      default: secret || p.default === '' ? null : p.default,
      sealedDefault,
      options: p.type === 'select' ? p.options : [],
      min: p.type === 'number' ? p.min : null,
      max: p.type === 'number' ? p.max : null,
      pattern: p.type === 'text' && p.pattern ? p.pattern : null,
    };
  });
}

export const toParamView = (p: StoredScriptParam): ScriptParamView => ({
  name: p.name,
  label: p.label,
  type: p.type,
  required: p.required,
  default: p.type === 'secret' ? null : p.default,
  has_default: p.type === 'secret' ? p.sealedDefault !== null : p.default !== null,
  options: p.options,
  min: p.min,
  max: p.max,
  pattern: p.pattern,
});

/** The fields of a row as the audit trail records them: secrets masked, the body's size only. */
export function auditFields(f: ScriptFields) {
  return {
    name: f.name,
    description: f.description,
    category: f.category,
    language: f.language,
    os: f.os,
    body_bytes: bodyBytes(f.body),
    timeout_seconds: f.timeoutSeconds,
    params: f.params.map((p) => ({
      ...toParamView(p),
      default: p.type === 'secret' && p.sealedDefault ? MASK : p.default,
    })),
  };
}

export function fieldsOf(input: ScriptInput, params: StoredScriptParam[]): ScriptFields {
  return {
    name: input.name,
    description: input.description,
    category: input.category,
    language: input.language,
    os: input.os,
    body: input.body,
    params,
    timeoutSeconds: input.timeout_seconds,
  };
}

export const toSummary = (r: ScriptRow): ScriptSummary => ({
  id: r.id,
  name: r.name,
  description: r.description,
  category: r.category,
  language: r.language,
  os: r.os,
  version: r.version,
  params_count: r.params.length,
  updated_at: r.updatedAt.toISOString(),
  updated_by_name: r.updatedByName,
  last_run_at: r.lastRunAt?.toISOString() ?? null,
});

export const toDetail = (r: ScriptRow): ScriptDetail => ({
  ...toSummary(r),
  body: r.body,
  params: r.params.map(toParamView),
  timeout_seconds: r.timeoutSeconds,
  created_at: r.createdAt.toISOString(),
  created_by_name: r.createdByName,
});
