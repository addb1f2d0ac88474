import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { apiSignIn, signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { wireAgent } from '../../fixtures/wire-agent';

// docs/product/rollouts.md#agent-updates-in-waves: Update Selected with waves on creates an agent
// update job whose page shows the Rollout card. A stand-in release (linux-x64, 99.0.0) is written
// where the server looks for published agents, and removed afterwards; two agents on the wire say
// they run 1.0.0 on Linux.

const shots = process.env.SHOTS_DIR;
const releasesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../packages/agent/dist-exe',
);
const STAND_IN = '#!/bin/sh\necho stand-in\n';
let createdDir = false;
const written: string[] = [];

test.describe.configure({ timeout: 120_000 });

test.beforeAll(() => {
  createdDir = !fs.existsSync(releasesDir);
  fs.mkdirSync(releasesDir, { recursive: true, mode: 0o700 });
  const file = path.join(releasesDir, 'outpost-agent-linux-x64');
  fs.writeFileSync(file, STAND_IN, { mode: 0o755 });
  const sha256 = crypto.createHash('sha256').update(STAND_IN).digest('hex');
  fs.writeFileSync(
    `${file}.json`,
    JSON.stringify({
      platform: 'linux-x64',
      version: '99.0.0',
      sha256,
      size: STAND_IN.length,
      node: 'v24.11.1',
    }),
  );
  written.push(file, `${file}.json`);
});

test.afterAll(() => {
  for (const f of written) {
    fs.rmSync(f, { force: true });
  }
  if (createdDir) {
    fs.rmSync(releasesDir, { recursive: true, force: true });
  }
});

async function theme(page: Page, isDark: boolean, width: number) {
  await page.setViewportSize({ width, height: 900 });
  await page.addInitScript(([key, dark]) => localStorage.setItem(key, String(dark)), [
    STORAGE_KEYS.darkMode,
    isDark,
  ] as const);
}

const settle = (page: Page) =>
  page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );

for (const [isDark, width] of [
  [false, 1440],
  [true, 1440],
  [false, 390],
  [true, 390],
] as const) {
  const name = `${isDark ? 'dark' : 'light'}-${width}`;
  test(`Update Selected in waves opens the job's Rollout card (${name})`, async ({ page }) => {
    await theme(page, isDark, width);
    const admin = await apiSignIn(page.request, DEMO_ADMIN);
    const tag = `upw${Date.now().toString(36)}`;
    const agents = [
      await wireAgent(page.request, admin.token, `${tag}-a`, { osType: 'linux', osVersion: 'Ubuntu 24.04' }),
      await wireAgent(page.request, admin.token, `${tag}-b`, { osType: 'linux', osVersion: 'Ubuntu 24.04' }),
    ];
    await signInAs(page, DEMO_ADMIN);
    await page.goto('/agents');
    await page.getByPlaceholder('Search hostname, IP or serial...').fill(tag);
    await expect(page.locator('tbody tr')).toHaveCount(2);
    for (const row of await page.locator('tbody tr').all()) {
      await row.getByRole('checkbox').check();
    }
    await page.getByRole('button', { name: /Update Selected \(2\)/ }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Update 2 agents?')).toBeVisible();
    await dialog.getByRole('button', { name: /Rollout/ }).click();
    await dialog.getByRole('switch', { name: 'Update in waves' }).click();
    await expect(dialog.getByTestId('rollout-plan')).toBeVisible();
    await settle(page);
    if (shots) {
      await page.screenshot({ path: `${shots}/dialog-${name}.png` });
    }
    await dialog.getByRole('button', { name: 'Update in waves' }).click();

    await expect(page).toHaveURL(/\/deployments\/\d+$/);
    await expect(page.getByRole('heading', { name: 'Agent update to 99.0.0' })).toBeVisible();
    await expect(page.getByText('Update agent to 99.0.0').first()).toBeVisible();
    await expect(page.getByTestId('rollout-card')).toBeVisible();
    await settle(page);
    if (shots) {
      await page.screenshot({ path: `${shots}/job-${name}.png`, fullPage: true });
    }
    // leave nothing running for the other tests
    await page.request.post(`/api/customer/deployments/${page.url().split('/').pop()}/cancel`, {
      headers: { authorization: `Bearer ${admin.token}` },
    });
    for (const a of agents) {
      a.close();
    }
  });
}
