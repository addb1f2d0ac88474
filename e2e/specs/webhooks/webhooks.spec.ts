import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { verifyWebhookSignature } from '../../../packages/server/src/lib/webhook-signature';

// docs/product/webhooks.md#the-webhooks-screen: an administrator creates a webhook to a receiver on
// this machine with the event checklist, copies the signing secret shown once, sends a test, sees
// it delivered in the log with its status code, and redelivers it; the receiver verifies each
// request with the documented recipe.

async function shoot(page: Page, name: string) {
  for (const isDark of [false, true]) {
    await page.evaluate((dark) => document.documentElement.classList.toggle('dark', dark), isDark);
    // the colours' transitions (sticky cells, toasts) end before the picture
    await page.waitForFunction(() =>
      document
        .getAnimations()
        .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
    );
    await page.screenshot({ path: `test-results/webhooks-${name}-${isDark ? 'dark' : 'light'}.png` });
  }
  await page.evaluate(() => document.documentElement.classList.remove('dark'));
}

test('create a webhook, send a test, see it delivered in the log and redeliver it', async ({ page }) => {
  const received: { verified: boolean; event: string | undefined }[] = [];
  let secret = '';
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const check = verifyWebhookSignature({
        secret,
        timestamp: req.headers['x-outpost-timestamp'] as string | undefined,
        signature: req.headers['x-outpost-signature'] as string | undefined,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      received.push({ verified: check.ok, event: req.headers['x-outpost-event'] as string | undefined });
      res.writeHead(check.ok ? 202 : 401).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/events`;
  try {
    await signInAs(page, DEMO_ADMIN);
    const name = `Ticketing ${Date.now().toString(36)}`;
    await page.goto('/webhooks');
    await expect(page.getByRole('heading', { name: 'Webhooks', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'New webhook' }).click();
    const dialog = page.getByRole('dialog', { name: 'New webhook' });
    await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
    await dialog.getByLabel('Payload URL').fill(url);
    // no event chosen: refused in the contract's words
    await dialog.getByRole('button', { name: 'Create webhook' }).click();
    await expect(dialog.getByText('Choose at least one event')).toBeVisible();
    await dialog.getByLabel('Device enrolled').check();
    await dialog.getByLabel('Alert opened').check();
    await shoot(page, 'editor');
    await dialog.getByRole('button', { name: 'Create webhook' }).click();

    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(shown).toBeVisible();
    secret = (await shown.locator('pre').textContent())!.trim();
    expect(secret.length).toBeGreaterThanOrEqual(24);
    await shown.getByRole('button', { name: 'Done' }).click();

    const row = page.getByRole('row', { name: new RegExp(name) });
    await expect(row).toContainText('Device enrolled, Alert opened');
    await page.getByRole('button', { name: `Send test to ${name}` }).click();
    await expect(page.getByText('Test sent')).toBeVisible();
    const log = page.getByRole('dialog', { name: `Deliveries: ${name}` });
    await expect(log.getByText('Delivered', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(log).toContainText('HTTP 202');
    await expect.poll(() => received.length).toBe(1);
    expect(received[0]).toEqual({ verified: true, event: 'webhook.test' });
    await shoot(page, 'log');

    await log
      .getByRole('button', { name: /^Redeliver delivery/ })
      .first()
      .click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    await expect(log).toContainText('redelivery of #');
    await log.getByRole('button', { name: 'Close' }).first().click();
    await expect(row).toContainText('Delivered');
    await shoot(page, 'list');
    await page.setViewportSize({ width: 390, height: 844 });
    await shoot(page, 'phone');
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
