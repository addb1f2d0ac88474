import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// docs/product/monitoring.md#notification-channels: an administrator creates a webhook channel to
// a receiver on this machine, copies the signing secret shown once, sends a test, and sees it
// delivered in the channel's log; the receiver checks the signature with the copied secret.

test('create a webhook channel, send a test, and see it delivered and signed', async ({ page }) => {
  const received: { body: string; signature: string | undefined }[] = [];
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({
        body: Buffer.concat(chunks).toString('utf8'),
        signature: req.headers['x-outpost-signature'] as string | undefined,
      });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/outpost`;
  try {
    await signInAs(page, DEMO_ADMIN);
    const name = `Ops hook ${Date.now().toString(36)}`;
    await page.goto('/notification-channels');
    await expect(page.getByRole('heading', { name: 'Notification Channels', level: 1 })).toBeVisible();
    await page.getByRole('button', { name: 'New channel' }).click();
    const dialog = page.getByRole('dialog', { name: 'New notification channel' });
    await dialog.getByLabel('Kind').selectOption('webhook');
    await dialog.getByLabel('Name').fill(name);
    // a bad URL is refused in the contract's words before anything is sent
    await dialog.getByLabel('Webhook URL').fill('ftp://example.com/x');
    await dialog.getByRole('button', { name: 'Create channel' }).click();
    await expect(dialog.getByText('The URL must start with http:// or https://')).toBeVisible();
    await dialog.getByLabel('Webhook URL').fill(url);
    await dialog.getByRole('button', { name: 'Create channel' }).click();

    const shown = page.getByRole('dialog', { name: 'Signing secret' });
    await expect(shown).toBeVisible();
    const secret = (await shown.locator('pre').textContent())!.trim();
    expect(secret.length).toBeGreaterThanOrEqual(24);
    await shown.getByRole('button', { name: 'Done' }).click();

    await page.getByRole('button', { name: `Send test to ${name}` }).click();
    await expect(page.getByText('Test sent')).toBeVisible();
    const log = page.getByRole('dialog', { name: `Deliveries: ${name}` });
    await expect(log.getByText('Delivered', { exact: true })).toBeVisible({ timeout: 20_000 });
    await expect(log).toContainText('204');
    await expect.poll(() => received.length).toBe(1);
    const hit = received[0]!;
    expect(hit.signature).toBe(
      `sha256=${crypto.createHmac('sha256', secret).update(hit.body).digest('hex')}`,
    );
    expect(JSON.parse(hit.body)).toMatchObject({ event: 'test', subject: 'Outpost test notification' });

    // redeliver from the log: a second delivery reaches the receiver
    await log
      .getByRole('button', { name: /^Redeliver delivery/ })
      .first()
      .click();
    await expect.poll(() => received.length, { timeout: 20_000 }).toBe(2);
    await log.getByRole('button', { name: 'Close' }).first().click();
    await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Delivered');
  } finally {
    await new Promise((r) => receiver.close(r));
  }
});
