import { expect } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { ListData } from '@outpost/contract/envelope';
import type { PackageSummary } from '@outpost/contract/packages';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { apiGet, listDevices, onlineDevices } from '../devices/api';
import { createCmdPackage, pickDevices } from '../deployments/api';
import { runOnDevices } from '../scripts/api';

// Every route of the portal, for the checks that walk them all (axe, phone widths, focus order).
// A new screen adds one line here.

export type Ctx = { request: APIRequestContext; token: string };
export type Route = {
  name: string;
  /** the path, or how to find it from the demo data */
  path: string | ((ctx: Ctx) => Promise<string>);
  /** visited signed out (the sign-in screen) */
  isPublic?: boolean;
};

const firstDevice = async ({ request, token }: Ctx) => {
  const [device] = await listDevices(request, token);
  if (!device) {
    throw new Error('the demo has devices');
  }
  return device.device_guid;
};
const firstPackage = async ({ request, token }: Ctx) => {
  const list = await apiGet<ListData<PackageSummary>>(request, token, '/api/customer/deployment-packages');
  const [pkg] = list.data;
  if (!pkg) {
    throw new Error('the demo has packages');
  }
  return pkg.id;
};

const firstDeployment = async ({ request, token }: Ctx) => {
  const list = await apiGet<ListData<DeploymentJob>>(request, token, '/api/customer/deployments?limit=1');
  const [job] = list.data;
  if (!job) {
    throw new Error('the demo has deployments');
  }
  return job.id;
};

const firstPolicy = async ({ request, token }: Ctx) => {
  const pkg = await firstPackage({ request, token });
  const res = await request.post('/api/customer/policies', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: `Axe policy ${Date.now().toString(36)}`,
      target_type: 'tenant',
      package_id: pkg,
      trigger: 'schedule',
      schedule: { frequency: 'weekly', time: '02:30', weekdays: [1, 4] },
    },
  });
  if (!res.ok()) {
    throw new Error(`create policy: ${res.status()} ${await res.text()}`);
  }
  return ((await res.json()) as { data: { id: number } }).data.id;
};

/** A group to open: the first the user may see, or a new static one (docs/product/device-sets.md#groups). */
const firstGroup = async ({ request, token }: Ctx) => {
  const list = await apiGet<ListData<{ id: number }>>(request, token, '/api/customer/groups?limit=1');
  if (list.data[0]) {
    return list.data[0].id;
  }
  const res = await request.post('/api/customer/groups', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      name: 'A11y group',
      kind: 'dynamic',
      filter: { match: 'all', conditions: [{ field: 'os_type', op: 'is', value: 'windows' }] },
    },
  });
  return ((await res.json()) as { data: { id: number } }).data.id;
};

/** A deployment with a rollout (docs/product/rollouts.md#waves): its page shows the rollout card. */
const rolloutDeployment = async ({ request, token }: Ctx) => {
  const name = `A11y rollout ${Date.now().toString(36)}`;
  const pkg = await createCmdPackage(request, token, name, [{ name: 'Install', command: 'exit 0' }]);
  const devices = await pickDevices(request, token, 2, 8);
  const res = await request.post('/api/customer/deployments', {
    headers: { authorization: `Bearer ${token}` },
    data: {
      package_id: pkg,
      device_ids: devices.map((d) => d.id),
      job_name: name,
      rollout: { mode: 'percent', waves: [{ percent: 50 }, { percent: 100 }], gate: { soak_minutes: 60 } },
    },
  });
  if (!res.ok()) {
    throw new Error(`create rollout: ${res.status()} ${await res.text()}`);
  }
  return ((await res.json()) as { data: { id: number } }).data.id;
};

/** A script of the demo library (docs/product/scripts.md). */
const firstScript = async ({ request, token }: Ctx) => {
  const list = await apiGet<ListData<{ id: number }>>(request, token, '/api/customer/scripts?limit=1');
  if (!list.data[0]) {
    throw new Error('the demo has scripts');
  }
  return list.data[0].id;
};
/** A script run on two demo devices (docs/product/scripts.md#results). */
const scriptRun = async ({ request, token }: Ctx) =>
  (
    await runOnDevices(
      request,
      token,
      `A11y script ${Date.now().toString(36)}`,
      'Write-Output "ok"\nexit 0',
      2,
      30,
    )
  ).job_id;

/** The API tokens screen with one token in its list (docs/product/administration.md#api-tokens). */
const withApiToken = async ({ request, token }: Ctx) => {
  const res = await request.post('/api/customer/api-tokens', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: `Axe token ${Date.now().toString(36)}`, scopes: ['devices:read', 'sites:write'] },
  });
  expect(res.ok()).toBe(true);
  return '/api-tokens';
};

export const routes: Route[] = [
  { name: 'sign-in', path: '/login', isPublic: true },
  { name: 'dashboard', path: '/dashboard' },
  { name: 'devices', path: '/devices' },
  ...['overview', 'activity', 'networking', 'software', 'services', 'monitoring', 'terminal'].map((tab) => ({
    name: `device detail: ${tab}`,
    path: async (ctx: Ctx) => `/devices/${await firstDevice(ctx)}?tab=${tab}`,
  })),
  {
    name: 'device detail: files',
    path: async ({ request, token }: Ctx) => {
      const device = (await onlineDevices(request, token)).find((d) => d.os_type === 'windows');
      return `/devices/${device?.device_guid ?? (await firstDevice({ request, token }))}?tab=files`;
    },
  },
  { name: 'agents', path: '/agents' },
  { name: 'packages', path: '/packages' },
  { name: 'package builder: new', path: '/packages/builder' },
  { name: 'package builder: edit', path: async (ctx) => `/packages/${await firstPackage(ctx)}/edit` },
  { name: 'profile', path: '/profile' },
  { name: 'deployments', path: '/deployments' },
  { name: 'deployment details', path: async (ctx) => `/deployments/${await firstDeployment(ctx)}` },
  {
    name: 'deployment details: rollout',
    path: async (ctx) => `/deployments/${await rolloutDeployment(ctx)}`,
  },
  { name: 'users', path: '/users' },
  { name: 'sites', path: '/sites' },
  { name: 'custom fields', path: '/custom-fields' },
  { name: 'tags', path: '/tags' },
  { name: 'notification channels', path: '/notification-channels' },
  { name: 'notification routing rules', path: '/notification-channels?tab=routing' },
  { name: 'alerts', path: '/alerts' },
  { name: 'audit logs', path: '/audit-logs' },
  { name: 'remote access settings', path: '/remote-access' },
  { name: 'single sign-on', path: '/sso' },
  { name: 'device activity', path: '/device-activity' },
  { name: 'policies', path: '/policies' },
  { name: 'policy details', path: async (ctx) => `/policies/${await firstPolicy(ctx)}` },
  { name: 'monitoring policies', path: '/policies?tab=monitoring' },
  { name: 'software', path: '/software' },
  { name: 'groups', path: '/groups' },
  { name: 'group details', path: async (ctx) => `/groups/${await firstGroup(ctx)}` },
  { name: 'scripts', path: '/scripts' },
  { name: 'script editor: new', path: '/scripts/new' },
  { name: 'script editor: edit', path: async (ctx) => `/scripts/${await firstScript(ctx)}` },
  { name: 'script runs', path: '/scripts/runs' },
  { name: 'script run results', path: async (ctx) => `/scripts/runs/${await scriptRun(ctx)}` },
  { name: 'api tokens', path: withApiToken },
  { name: 'webhooks', path: '/webhooks' },
];

export async function useTheme(page: Page, theme: 'light' | 'dark') {
  await page.addInitScript(([key, isDark]) => localStorage.setItem(key, String(isDark)), [
    STORAGE_KEYS.darkMode,
    theme === 'dark',
  ] as const);
}

/**
 * From light to dark on an open route, as a user does it: the header's switch on a signed-in
 * page; the sign-in screen has none, so there the stored setting and a reload.
 */
export async function switchToDark(page: Page, route: Route) {
  await expect(page.locator('html')).not.toHaveClass(/dark/);
  if (route.isPublic) {
    await page.evaluate((key) => localStorage.setItem(key, 'true'), STORAGE_KEYS.darkMode);
    await page.reload();
    await expect(page.locator('h1').first()).toBeVisible();
  } else {
    await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  }
  await expect(page.locator('html')).toHaveClass(/dark/);
  // judged at rest: the colours' transitions start at the next frames (axe right after the switch
  // read light text on the dark background); endless animations, such as a spinner, are not waited for
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
}

/** Signs in (unless the route is public), opens the route and waits until it has loaded. */
export async function openRoute(page: Page, route: Route) {
  let path = typeof route.path === 'string' ? route.path : '';
  if (!route.isPublic) {
    const session = await signInAs(page, DEMO_ADMIN);
    if (typeof route.path === 'function') {
      path = await route.path({ request: page.request, token: session.token });
    }
  }
  await page.goto(path);
  await expect(page.locator('h1').first()).toBeVisible({ timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
}
