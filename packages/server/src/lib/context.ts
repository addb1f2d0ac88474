import { messages } from '@outpost/contract/messages';
import type { Role, SiteAccessType } from '@outpost/contract/auth';
import type { ApiTokenScope } from '@outpost/contract/api-tokens';
import { forbidden } from './errors';

// The caller, as every service sees it first (STYLE.md: `list(ctx, query)`). It lives in lib/
// because services, scopes and the audit trail all take it: the session that makes it is resolved
// by the auth module (modules/auth/sessions.service.ts) and put on the request by plugins/auth.ts.
export type RequestContext = {
  /** the server-side session behind the token (null for contexts no session made) */
  sessionId: string | null;
  /** the signed-in person (SECURITY.md R2-1); null for contexts no sign-in made */
  identityId: number | null;
  userId: number;
  tenantId: number;
  tenantName: string;
  email: string;
  name: string | null;
  role: Role;
  siteAccessType: SiteAccessType;
  /** Sites the user may see when siteAccessType is 'specific'. */
  siteIds: number[];
  ip: string;
  userAgent: string | null;
  /**
   * Set when the caller is an API token (docs/product/administration.md#api-tokens): the token
   * acts for its creator (userId…), within its scopes and sites (siteIds).
   */
  apiToken?: ApiTokenCaller;
};

export type ApiTokenCaller = { id: number; name: string; scopes: ApiTokenScope[]; expiresAt: Date | null };

export const isAdmin = (ctx: RequestContext) => ctx.role === 'tenant_admin';

export function requireAdmin(ctx: RequestContext): void {
  if (!isAdmin(ctx)) {
    throw forbidden(messages.adminOnly, 'ADMIN_ONLY');
  }
}
