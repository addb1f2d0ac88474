import { z } from 'zod';
import { inputMessages } from './messages';

// Rules every input obeys, whatever the route or message (docs/architecture.md#server: validation at the edge).
// They exist because PostgreSQL refuses what JavaScript accepts: a text value cannot hold a NUL
// character, a jsonb value cannot hold an unpaired UTF-16 surrogate ("\ud800", which JSON text
// can carry but no Unicode text contains), an integer column holds at most 2³¹−1, and a deeply
// nested document overflows the stack of whoever walks it. Checked here, such input is a 400 with
// a message, not a 500 (SECURITY.md, findings 9 and R2-11).

/** The largest PostgreSQL `integer` (int4): every id and counter column. */
export const INT4_MAX = 2_147_483_647;
/** The deepest nesting of objects and arrays any request body or message may have. */
export const MAX_INPUT_DEPTH = 32;

/** An id in a JSON body: an integer from 1 to 2³¹−1. */
export const Id = z
  .number({ error: inputMessages.idInvalid })
  .int(inputMessages.idInvalid)
  .min(1, inputMessages.idInvalid)
  .max(INT4_MAX, inputMessages.idInvalid);

/** An id in a path or query string (text on the wire), same bounds. */
export const IdParam = z.coerce
  .number({ error: inputMessages.idInvalid })
  .int(inputMessages.idInvalid)
  .min(1, inputMessages.idInvalid)
  .max(INT4_MAX, inputMessages.idInvalid);

/** A page number in a query string: 1 to 2³¹−1 (beyond it the row offset overflows). */
export const PageParam = z.coerce
  .number({ error: inputMessages.pageInvalid })
  .int(inputMessages.pageInvalid)
  .min(1, inputMessages.pageInvalid)
  .max(INT4_MAX, inputMessages.pageInvalid)
  .default(1);

/** Whether a numeric path segment is a valid id (a device is addressed by id or by guid). */
export const isIdText = (value: string) =>
  /^\d{1,10}$/.test(value) && Number(value) >= 1 && Number(value) <= INT4_MAX;

export type InputProblem = { path: string; message: string };

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one (code
// units, so no `u` flag). String.prototype.isWellFormed says the same but is ES2024.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string (a value or a key) is not acceptable text, or null. */
export function textProblem(text: string): string | null {
  if (text.includes('\u0000')) {
    return inputMessages.nulCharacter;
  }
  if (UNPAIRED_SURROGATE.test(text)) {
    return inputMessages.illFormedText;
  }
  return null;
}

/**
 * The first reason `value` is not acceptable input, or null: a string or key holding a NUL
 * character or an unpaired surrogate, or nesting deeper than MAX_INPUT_DEPTH. Walks without recursion, so a hostile
 * 50,000-deep document costs a loop, not the stack.
 */
export function findInputProblem(value: unknown, maxDepth = MAX_INPUT_DEPTH): InputProblem | null {
  const pending: { value: unknown; path: string; depth: number }[] = [{ value, path: '', depth: 0 }];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    const { value: current, path, depth } = item;
    if (typeof current === 'string') {
      const message = textProblem(current);
      if (message) {
        return { path, message };
      }
      continue;
    }
    if (current === null || typeof current !== 'object') {
      continue;
    }
    if (depth >= maxDepth) {
      return { path, message: inputMessages.tooDeep(maxDepth) };
    }
    const entries: [string, unknown][] = Array.isArray(current)
      ? current.map((v, i) => [String(i), v] as [string, unknown])
      : Object.entries(current);
    for (const [key, child] of entries) {
      const childPath = path ? `${path}.${key}` : key;
      const keyMessage = textProblem(key);
      if (keyMessage) {
        return { path: childPath, message: keyMessage };
      }
      pending.push({ value: child, path: childPath, depth: depth + 1 });
    }
  }
  return null;
}

/**
 * For message schemas parsed outside the HTTP layer (agent and portal sockets): adds the input
 * rules to a schema as a refinement, `Schema.superRefine(refineInput)`.
 */
export function refineInput(value: unknown, ctx: z.RefinementCtx): void {
  const problem = findInputProblem(value);
  if (problem) {
    ctx.addIssue({
      code: 'custom',
      message: problem.message,
      path: problem.path ? problem.path.split('.') : [],
    });
  }
}
