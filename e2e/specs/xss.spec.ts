import { expect, test } from '@playwright/test';
import type { APIRequestContext, Page } from '@playwright/test';
import WebSocket from 'ws';
import { AGENT_DEVICE_HEADER, AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import { signInAs } from '../fixtures/auth';
import { E2E_BASE_URL, DEMO_ADMIN } from '../fixtures/env';
import { createCmdPackage, createJob, getJob, pickDevices } from './deployments/api';

// Stored XSS: a hostname, OS version, package and step name, step output, job name, audit
// detail, user name, site name, activity user name and software name holding markup are created
// through the API and an agent socket, then every screen that shows them is visited. The page runs
// with the CSP bypassed, so what is checked is the rendering itself: no script runs (window.__xss
// stays undefined), no element is injected, and the markup is visible as text. The CSP is checked
// on its own, on the document response.

test.use({ bypassCSP: true });

const tag = Date.now().toString(36).slice(-5);
const IMG = `<img src=x onerror="window.__xss=1">`;
const SCRIPT = `<script>window.__xss=1</script>`;
const SVG = `"><svg onload="window.__xss=1">`;

const names = {
  hostname: `xss-host-${tag}${IMG}`,
  package: `XSS pkg ${tag} ${SCRIPT}`,
  step: `XSS step ${tag} ${IMG}`,
  job: `XSS job ${tag} ${SVG}`,
  user: `XSS user ${tag} ${SVG}`,
  site: `XSS site ${tag} ${IMG}`,
  login: `xss-login-${tag}${SCRIPT}`,
  software: `xss-sw-${tag}${SVG}`,
};
/** what the step prints (the simulated agent echoes it) */
const OUTPUT = `out-${tag} ${IMG}`;

type Envelope<T> = { success: boolean; data: T };

async function post<T>(request: APIRequestContext, token: string, path: string, data: unknown): Promise<T> {
  const res = await request.post(path, { headers: { authorization: `Bearer ${token}` }, data });
  expect(res.ok(), `${path}: ${await res.text()}`).toBe(true);
  return ((await res.json()) as Envelope<T>).data;
}

/** Nothing ran and nothing was injected; each expected text is shown as text. */
async function expectInert(page: Page, texts: string[]) {
  for (const text of texts) {
    await expect(page.getByText(text, { exact: false }).first()).toBeVisible();
  }
  expect(await page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss)).toBeUndefined();
  await expect(page.locator('img[src="x"]')).toHaveCount(0);
  await expect(page.locator('svg[onload]')).toHaveCount(0);
  await expect(page.locator('[onerror], [onload]')).toHaveCount(0);
  await expect(page.locator('script', { hasText: '__xss' })).toHaveCount(0);
}

/** An agent speaking the wire protocol: enrolled with a markup hostname, reporting a markup login. */
async function markupAgent(request: APIRequestContext, token: string, siteId: number) {
  const created = await post<{ token: string }>(request, token, '/api/customer/agents/enrollment-tokens', {
    site_id: siteId,
  });
  const res = await request.post('/api/agent/enroll', {
    data: {
      token: created.token,
      facts: {
        hostname: names.hostname,
        osType: 'windows',
        osVersion: `Windows 11 ${SVG}`,
        agentVersion: '1.0.0',
      },
    },
  });
  expect(res.ok(), await res.text()).toBe(true);
  const creds = ((await res.json()) as Envelope<EnrollResult>).data;
  const ws = new WebSocket(`${E2E_BASE_URL.replace(/^http/, 'ws')}/api/agent/ws`, {
    headers: { [AGENT_DEVICE_HEADER]: creds.device_guid, authorization: `Bearer ${creds.agent_secret}` },
  });
  const welcomed = new Promise<void>((resolve, reject) => {
    ws.on('message', (d: Buffer) => {
      if ((JSON.parse(d.toString()) as { type: string }).type === 'welcome') {
        resolve();
      }
    });
    ws.once('error', reject);
  });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  const now = new Date().toISOString();
  ws.send(
    JSON.stringify({
      type: 'hello',
      protocolVersion: AGENT_PROTOCOL_VERSION,
      agentVersion: '1.0.0',
      hostname: names.hostname,
      osType: 'windows',
      osVersion: `Windows 11 ${SVG}`,
      sessions: [],
    }),
  );
  await welcomed;
  ws.send(
    JSON.stringify({
      type: 'activity',
      messageId: `xss-${tag}`,
      events: [{ eventType: 'login', userName: names.login, sessionId: `s-${tag}`, timestamp: now }],
    }),
  );
  // a first, empty software inventory: what a device comes with is not "discovered" (the
  // dashboard lists software first seen after it), so the markup title arrives after the ack
  const baselineId = `xss-base-${tag}`;
  const baselineAcked = new Promise<void>((resolve) => {
    ws.on('message', (d: Buffer) => {
      const m = JSON.parse(d.toString()) as { type: string; messageId?: string; messageIds?: string[] };
      if (m.type === 'ack' && (m.messageId === baselineId || m.messageIds?.includes(baselineId))) {
        resolve();
      }
    });
  });
  ws.send(JSON.stringify({ type: 'inventory', messageId: baselineId, collectedAt: now, software: [] }));
  await baselineAcked;
  ws.send(
    JSON.stringify({
      type: 'inventory',
      messageId: `xss-inv-${tag}`,
      collectedAt: now,
      software: [
        { name: names.software, displayName: null, publisher: IMG, version: '1.0', installDate: null },
      ],
    }),
  );
  return { guid: creds.device_guid, close: () => ws.close(1000) };
}

test('the document carries the Content-Security-Policy', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  const res = await page.goto('/dashboard');
  const csp = res!.headers()['content-security-policy'] ?? '';
  expect(csp).toContain("script-src 'self'");
  expect(/script-src ([^;]*)/.exec(csp)![1]).not.toContain('unsafe');
  expect(csp).toContain("object-src 'none'");
});

test('markup in stored names and output renders as text on every screen that shows it', async ({ page }) => {
  test.setTimeout(120_000);
  const admin = await signInAs(page, DEMO_ADMIN);
  const { request } = page;
  const site = await post<{ id: number }>(request, admin.token, '/api/customer/sites', {
    site_name: names.site,
    site_code: `X${tag}`.slice(0, 6).toUpperCase(),
  });
  await post(request, admin.token, '/api/customer/users', {
    email: `xss-${tag}@acme.example`,
    name: names.user,
    role: 'user',
  });
  const agent = await markupAgent(request, admin.token, site.id);
  const packageId = await createCmdPackage(request, admin.token, names.package, [
    // the step takes 10 s: the job is still running when the page below opens (see there)
    { name: names.step, command: `echo ${OUTPUT} & sleep 10 & exit 0` },
  ]);
  const [target] = await pickDevices(request, admin.token, 1, 7);

  try {
    // the job completes while the deployments page is open: its toast carries the job name (the
    // completion's, not 'Deployment Started', which carries it too). A job created elsewhere is
    // announced once the shell knows it (its active jobs are read when it opens, and once a
    // minute), so the page opens while the job runs, and the socket is live before it ends.
    const job = await createJob(request, admin.token, {
      package_id: packageId,
      device_ids: [target!.id],
      job_name: names.job,
    });
    await page.goto('/deployments');
    await expect(page.getByTestId('connection-indicator')).toHaveText('Live');
    await expect(
      page.locator('[data-toast-type="success"]').filter({ hasText: 'Deployment Completed' }).filter({
        hasText: names.job,
      }),
    ).toBeVisible({ timeout: 60_000 });
    await expectInert(page, [names.job]);
    expect((await getJob(request, admin.token, job.id)).status).toBe('completed');

    await page.goto(`/deployments/${job.id}`);
    await expectInert(page, [names.job, names.package]);
    await page
      .getByRole('button', { name: /Step logs for/ })
      .first()
      .click();
    await expectInert(page, [names.step, OUTPUT]);
    await page.keyboard.press('Escape');

    await page.goto('/packages');
    await page.getByRole('searchbox', { name: 'Search' }).fill(tag);
    await expectInert(page, [names.package]);
    await page.goto(`/packages/${packageId}/edit`);
    await expectInert(page, [names.step]);

    await page.goto('/devices');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`xss-host-${tag}`);
    await expectInert(page, [names.hostname]);
    await page.goto(`/devices/${agent.guid}`);
    await expectInert(page, [names.hostname, names.site]);
    await page.goto(`/devices/${agent.guid}?tab=activity`);
    await expectInert(page, [names.login]);
    await page.goto(`/devices/${agent.guid}?tab=software`);
    await expectInert(page, [names.software]);

    await page.goto('/device-activity');
    await page.getByRole('searchbox', { name: 'Search devices or sites' }).fill(`xss-host-${tag}`);
    await expectInert(page, [names.hostname]);
    // the newest software of the tenant, with the device it was found on (the panel is reused
    // for up to 30 s per scope, so a title first seen just now may take that long to appear)
    await expect(async () => {
      await page.goto('/dashboard');
      await expect(page.getByText(names.software).first()).toBeVisible({ timeout: 2_000 });
    }).toPass({ timeout: 45_000 });
    await expectInert(page, [names.software]);
    await page.goto('/audit-logs');
    await expectInert(page, [names.package]);
    await page.goto('/users');
    await expectInert(page, [names.user]);
    await page.goto('/sites');
    await expectInert(page, [names.site]);
    await page.goto('/agents');
    await page.getByRole('searchbox', { name: 'Search' }).fill(`xss-host-${tag}`);
    await expectInert(page, [names.hostname, names.site]);
  } finally {
    agent.close();
  }
});
