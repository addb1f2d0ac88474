import type { ApiTokenArea, ApiTokenScope } from '@outpost/contract/api-tokens';

// The one map of /api/customer routes to the areas API tokens' scopes name
// (docs/product/administration.md#api-tokens; the choices: docs/decisions/2026-11-27-api-token-scopes.md).
// A route pattern takes the area of the first prefix it starts with; 'refused' routes, and any
// route that matches no prefix at all, refuse every token (fail closed): a route added later is
// closed to tokens until someone puts it here.

const CUSTOMER = '/api/customer';

/** In order: the first prefix a route pattern (after /api/customer) starts with decides. */
export const TOKEN_ROUTE_AREAS: readonly (readonly [prefix: string, area: ApiTokenArea | 'refused'])[] = [
  // People's own sign-in, sessions and profile; the tokens themselves (a token cannot make tokens)
  ['/auth/', 'refused'],
  ['/api-tokens', 'refused'],
  // Interactive remote access stays with people signed in to the portal
  ['/devices/:id/terminal', 'refused'],
  ['/terminal-sessions', 'refused'],
  ['/devices/:id/files', 'refused'],
  ['/file-transfers', 'refused'],
  ['/settings/remote-access', 'refused'],
  // Event webhooks carry every area's events (audit entries included) to another system: set up by
  // a person, never by a token whose scopes would not cover what the subscription sends
  ['/webhooks', 'refused'],
  // The organisation's single sign-on provider decides who may become a member: a person's choice
  ['/sso-provider', 'refused'],
  // devices and what describes or groups them
  ['/devices', 'devices'],
  ['/device-activity', 'devices'],
  ['/deployments/device-actions', 'devices'],
  ['/agents/', 'devices'],
  ['/software', 'devices'],
  ['/tags', 'devices'],
  ['/groups', 'devices'],
  ['/custom-fields', 'devices'],
  // packages and their files
  ['/deployment-packages', 'packages'],
  ['/files', 'packages'],
  // deployments and what starts or gates them
  ['/deployments', 'deployments'],
  ['/policies', 'deployments'],
  ['/maintenance-windows', 'deployments'],
  // scripts and their runs
  ['/scripts', 'scripts'],
  ['/script-runs', 'scripts'],
  ['/users', 'users'],
  ['/sites', 'sites'],
  ['/audit', 'audit'],
  // monitoring: alerts, their routing, checks and where notifications go
  ['/alerts', 'alerts'],
  ['/alert-routes', 'alerts'],
  ['/monitoring-policies', 'alerts'],
  ['/notification-channels', 'alerts'],
];

/** The area of a route pattern (as registered, e.g. /api/customer/devices/:id), or 'refused'. */
export function tokenRouteArea(pattern: string): ApiTokenArea | 'refused' {
  if (!pattern.startsWith(`${CUSTOMER}/`)) {
    return 'refused';
  }
  const path = pattern.slice(CUSTOMER.length);
  const hit = TOKEN_ROUTE_AREAS.find(([prefix]) => path === prefix || path.startsWith(prefix));
  return hit?.[1] ?? 'refused';
}

/** The scope a request needs: read for GET and HEAD, write for anything else; null when refused. */
export function requiredScope(method: string, pattern: string): ApiTokenScope | null {
  const area = tokenRouteArea(pattern);
  if (area === 'refused') {
    return null;
  }
  const isRead = method === 'GET' || method === 'HEAD';
  return `${area}:${isRead ? 'read' : 'write'}`;
}
