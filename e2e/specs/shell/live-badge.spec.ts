import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { startPrivateServer } from '../../fixtures/server';

test('the badge reads Live Updates once signed in, and Disconnected when the server goes away', async ({
  page,
}) => {
  test.setTimeout(120_000); // it starts a server of its own
  const server = await startPrivateServer();
  try {
    await signInAs(page, DEMO_ADMIN, server.url);
    await page.goto(`${server.url}/dashboard`);
    const badge = page.getByTestId('live-badge');
    await expect(badge).toHaveText('Live Updates');
    await expect(badge).toHaveAttribute('data-status', 'connected');
    await server.stop();
    await expect(badge).toHaveText('Disconnected');
  } finally {
    server.kill();
  }
});
