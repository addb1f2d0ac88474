import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { startPrivateServer } from '../../fixtures/server';

// docs/product/live-updates.md#connection badge retries; beyond the original product description, the way back once the retries are spent.
test('the badge reads Disconnected with Reconnect when the server goes away, and Connected again after a restart', async ({
  page,
}) => {
  test.setTimeout(180_000); // it starts a server of its own, twice
  const server = await startPrivateServer();
  try {
    await signInAs(page, DEMO_ADMIN, server.url);
    await page.goto(`${server.url}/dashboard`);
    const badge = page.getByTestId('live-badge');
    const reconnect = page.getByRole('button', { name: 'Reconnect' });
    await expect(badge).toHaveText('Live Updates');
    await expect(badge).toHaveAttribute('data-status', 'connected');
    await expect(reconnect).toHaveCount(0);

    await server.stop();
    await expect(badge).toHaveText('Disconnected');
    // The retry after 2 s finds nothing listening (1006): the client gives up and offers Reconnect.
    await expect(reconnect).toBeVisible({ timeout: 20_000 });

    await server.restart();
    await reconnect.click();
    await expect(badge).toHaveText('Live Updates');
    await expect(badge).toHaveAttribute('data-status', 'connected');
    await expect(reconnect).toHaveCount(0);

    // Once more, and this time the browser coming back online brings it back by itself.
    await server.stop();
    await expect(reconnect).toBeVisible({ timeout: 20_000 });
    await server.restart();
    await page.evaluate(() => window.dispatchEvent(new Event('online')));
    await expect(badge).toHaveAttribute('data-status', 'connected');
  } finally {
    server.kill();
  }
});
