import { LANGUAGES_BY_OS, SCRIPT_LANGUAGE_LABELS, SCRIPT_LIMITS } from './scripts';
import type { ScriptLanguage, ScriptOs, ScriptParamInput, ScriptParamView } from './scripts';

// The rules of a script's parameters (docs/product/scripts.md#parameters), shared by the server
// (saving a script, starting a run) and the web app (the editor and the Run dialog say the same
// before sending). Pure: no I/O.

export type ParamProblem = { path: string; message: string };

/** The fields a rule reads: a definition as saved or as the API shows it. */
type ParamRules = Pick<ScriptParamInput, 'name' | 'type' | 'options' | 'min' | 'max' | 'pattern'> & {
  label?: string;
};

/** A text parameter's pattern as a whole-value match, or null when it does not compile. */
export function compilePattern(pattern: string): RegExp | null {
  try {
    return new RegExp(`^(?:${pattern})$`, 'u');
  } catch {
    return null;
  }
}

const OS_LABELS: Record<ScriptOs, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  any: 'any OS',
};

/** Why `language` cannot target `os`, or null. */
export function languageOsProblem(language: ScriptLanguage, os: ScriptOs): string | null {
  return LANGUAGES_BY_OS[os].includes(language)
    ? null
    : `${SCRIPT_LANGUAGE_LABELS[language]} scripts cannot target ${OS_LABELS[os]}`;
}

/** The body's size in UTF-8 bytes (the limit is in bytes). */
export const bodyBytes = (body: string) => new TextEncoder().encode(body).length;

/** Why `value` is not acceptable for the parameter, or null (an empty value is "no value"). */
export function paramValueProblem(p: ParamRules, value: string): string | null {
  const label = p.label || p.name;
  if (value.length > SCRIPT_LIMITS.paramValueMax) {
    return `${label} is longer than ${SCRIPT_LIMITS.paramValueMax} characters`;
  }
  switch (p.type) {
    case 'number': {
      const n = Number(value);
      if (value.trim() === '' || !Number.isFinite(n)) {
        return `${label} must be a number`;
      }
      if (p.min !== null && n < p.min) {
        return `${label} must be at least ${p.min}`;
      }
      if (p.max !== null && n > p.max) {
        return `${label} must be at most ${p.max}`;
      }
      return null;
    }
    case 'boolean':
      return value === 'true' || value === 'false' ? null : `${label} must be true or false`;
    case 'select':
      return p.options.includes(value) ? null : `${label} must be one of: ${p.options.join(', ')}`;
    case 'text': {
      if (p.pattern === null || p.pattern === '') {
        return null;
      }
      const re = compilePattern(p.pattern);
      return re && re.test(value) ? null : `${label} does not match the pattern ${p.pattern}`;
    }
    case 'secret':
      return null;
  }
}

/** The first problem of a script's parameter definitions, or null. */
export function paramDefinitionsProblem(params: readonly ScriptParamInput[]): ParamProblem | null {
  const seen = new Set<string>();
  for (const [i, p] of params.entries()) {
    const at = (field: string) => `params.${i}.${field}`;
    const key = p.name.toUpperCase();
    if (seen.has(key)) {
      return { path: at('name'), message: `Two parameters are named ${p.name}` };
    }
    seen.add(key);
    const problem = definitionProblem(p);
    if (problem) {
      return { path: at(problem.field), message: problem.message };
    }
  }
  return null;
}

function definitionProblem(p: ScriptParamInput): { field: string; message: string } | null {
  const label = p.label || p.name;
  if (p.type === 'select') {
    if (p.options.length === 0) {
      return { field: 'options', message: `${label}: a select parameter needs options` };
    }
    if (new Set(p.options).size !== p.options.length) {
      return { field: 'options', message: `${label}: the options repeat a value` };
    }
  }
  if (p.type === 'number' && p.min !== null && p.max !== null && p.min > p.max) {
    return { field: 'min', message: `${label}: the minimum is above the maximum` };
  }
  if (p.type === 'text' && p.pattern && compilePattern(p.pattern) === null) {
    return { field: 'pattern', message: `${label}: the pattern is not a valid regular expression` };
  }
  if (p.default !== null && p.default !== '' && p.type !== 'secret') {
    const problem = paramValueProblem(p, p.default);
    if (problem) {
      return { field: 'default', message: `Default of ${problem}` };
    }
  }
  return null;
}

/**
 * The values a run uses for the non-secret parameters: the given value, else the default; a
 * required parameter without either is a problem, as is a value breaking its rules. Secrets are
 * the caller's: the server fills them from the sealed defaults, the web app from its form.
 */
export function resolveRunValues(
  params: readonly Pick<
    ScriptParamView,
    'name' | 'label' | 'type' | 'required' | 'default' | 'options' | 'min' | 'max' | 'pattern'
  >[],
  given: Record<string, string>,
): { values: Record<string, string>; problem: ParamProblem | null } {
  const known = new Set(params.map((p) => p.name));
  const unknown = Object.keys(given).find((name) => !known.has(name));
  if (unknown !== undefined) {
    return {
      values: {},
      problem: { path: `params.${unknown}`, message: `The script has no parameter ${unknown}` },
    };
  }
  const values: Record<string, string> = {};
  for (const p of params) {
    if (p.type === 'secret') {
      continue;
    }
    const value = given[p.name] ?? p.default ?? '';
    if (value === '') {
      if (p.required) {
        return { values, problem: { path: `params.${p.name}`, message: `${p.label || p.name} is required` } };
      }
      continue;
    }
    const problem = paramValueProblem(p, value);
    if (problem) {
      return { values, problem: { path: `params.${p.name}`, message: problem } };
    }
    values[p.name] = value;
  }
  return { values, problem: null };
}
