import { scriptMessages as messages } from '@outpost/contract/scripts';
import type { RequestContext } from '../../lib/context';
import type { Executor } from '../../lib/db';
import { conflict, forbidden, notFound } from '../../lib/errors';
import { isSiteLimited } from '../../lib/scope';
import { findScript, nameTaken } from './scripts.queries';
import type { Editor, ScriptRow } from './scripts.queries';

// Who may do what with scripts (docs/product/scripts.md#who-may-do-what): scripts are shared by
// every site of the tenant, like a shared package (SECURITY.md R2-5), so every member reads and
// runs them and only members with access to all sites change them.

/** A change needs access to all sites: scripts are shared by every site. */
export function assertMayChange(ctx: RequestContext): void {
  if (isSiteLimited(ctx)) {
    throw forbidden(messages.readOnly, 'SCRIPT_READ_ONLY');
  }
}

export const editorOf = (ctx: RequestContext): Editor => ({
  userId: ctx.userId,
  name: ctx.name ?? ctx.email,
});

export async function loadOr404(
  ex: Executor,
  ctx: RequestContext,
  id: number,
  lock = false,
): Promise<ScriptRow> {
  const row = await findScript(ex, ctx, id, { lock });
  if (!row) {
    throw notFound(messages.notFound, 'SCRIPT_NOT_FOUND');
  }
  return row;
}

export async function assertNameFree(ex: Executor, ctx: RequestContext, name: string, exceptId?: number) {
  if (await nameTaken(ex, ctx, name, exceptId)) {
    throw conflict(messages.nameTaken(name), 'SCRIPT_NAME_TAKEN');
  }
}
