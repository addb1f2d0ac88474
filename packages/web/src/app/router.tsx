import { createBrowserRouter, Navigate } from 'react-router';
import type { RouteObject } from 'react-router';
import { RouteError } from './route-error';
import { FullScreenSpinner, RedirectIfSignedIn, RequireAuth } from './route-gate';

// docs/product/sign-in.md#routes-and-the-gate route table. Each screen is its own lazily loaded chunk; until the first
// one has arrived the router shows the gate's spinner (hydrateFallbackElement).
type PageModule = { default: React.ComponentType };
const page = (load: () => Promise<PageModule>): Pick<RouteObject, 'lazy' | 'errorElement'> => ({
  lazy: async () => ({ Component: (await load()).default }),
  errorElement: <RouteError />,
});

export const routes: RouteObject[] = [
  {
    element: <RedirectIfSignedIn />,
    hydrateFallbackElement: <FullScreenSpinner />,
    errorElement: <RouteError />,
    children: [{ path: '/login', ...page(() => import('../features/auth/pages/login-page')) }],
  },
  {
    element: <RequireAuth />,
    hydrateFallbackElement: <FullScreenSpinner />,
    errorElement: <RouteError />,
    children: [
      {
        path: '/',
        lazy: async () => ({ Component: (await import('./layout/app-layout')).default }),
        children: [
          { index: true, element: <Navigate to="/dashboard" replace /> },
          { path: 'dashboard', ...page(() => import('../features/dashboard/pages/dashboard-page')) },
          { path: 'alerts', ...page(() => import('../features/alerts/pages/alerts-page')) },
          { path: 'devices', ...page(() => import('../features/devices/pages/device-list-page')) },
          {
            path: 'devices/:deviceGuid',
            ...page(() => import('../features/devices/pages/device-detail-page')),
          },
          { path: 'groups', ...page(() => import('../features/groups/pages/groups-page')) },
          { path: 'groups/:id', ...page(() => import('../features/groups/pages/group-detail-page')) },
          { path: 'packages', ...page(() => import('../features/packages/pages/package-list-page')) },
          {
            path: 'packages/builder',
            ...page(() => import('../features/packages/pages/package-builder-page')),
          },
          {
            path: 'packages/:id/edit',
            ...page(() => import('../features/packages/pages/package-builder-page')),
          },
          { path: 'scripts', ...page(() => import('../features/scripts/pages/script-list-page')) },
          { path: 'scripts/new', ...page(() => import('../features/scripts/pages/script-editor-page')) },
          { path: 'scripts/:id', ...page(() => import('../features/scripts/pages/script-editor-page')) },
          {
            path: 'deployments',
            ...page(() => import('../features/deployments/pages/deployment-list-page')),
          },
          {
            path: 'deployments/:id',
            ...page(() => import('../features/deployments/pages/deployment-detail-page')),
          },
          { path: 'policies', ...page(() => import('../features/policies/pages/policies-page')) },
          { path: 'scripts/runs', ...page(() => import('../features/script-runs/pages/script-runs-page')) },
          {
            path: 'scripts/runs/:id',
            ...page(() => import('../features/script-runs/pages/script-run-page')),
          },
          { path: 'policies/:id', ...page(() => import('../features/policies/pages/policy-detail-page')) },
          { path: 'users', ...page(() => import('../features/users/pages/users-page')) },
          { path: 'agents', ...page(() => import('../features/agents/pages/agents-page')) },
          { path: 'sites', ...page(() => import('../features/sites/pages/sites-page')) },
          {
            path: 'custom-fields',
            ...page(() => import('../features/custom-fields/pages/custom-fields-page')),
          },
          { path: 'tags', ...page(() => import('../features/tags/pages/tags-page')) },
          {
            path: 'notification-channels',
            ...page(() => import('../features/notifications/pages/notification-channels-page')),
          },
          { path: 'audit-logs', ...page(() => import('../features/audit/pages/audit-logs-page')) },
          {
            path: 'remote-access',
            ...page(() => import('../features/remote-access/pages/remote-access-page')),
          },
          { path: 'software', ...page(() => import('../features/software/pages/software-page')) },
          { path: 'software/title', ...page(() => import('../features/software/pages/software-title-page')) },
          {
            path: 'device-activity',
            ...page(() => import('../features/activity/pages/device-activity-page')),
          },
          { path: 'profile', ...page(() => import('../features/profile/pages/profile-page')) },
          { path: 'api-tokens', ...page(() => import('../features/api-tokens/pages/api-tokens-page')) },
          { path: 'webhooks', ...page(() => import('../features/webhooks/pages/webhooks-page')) },
          { path: 'sso', ...page(() => import('../features/sso/pages/sso-page')) },
        ],
      },
    ],
  },
  // Any unknown path goes to /dashboard (which sends visitors on to /login).
  { path: '*', element: <Navigate to="/dashboard" replace /> },
];

export const createRouter = () => createBrowserRouter(routes);
