import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { wireAgent } from '../../fixtures/wire-agent';

// A device whose agent could not collect its software and services (no PowerShell, as on Wine)
// says so on its overview, and the note follows what the agent sends next
// (docs/decisions/2026-11-26-device-not-reported.md).

const tag = Date.now().toString(36).slice(-5);
const HOSTNAME = `no-ps-${tag}`;
const REASON = 'PowerShell is not available on this device';

test('the overview says which inventory parts were not reported, and why', async ({ page }) => {
  const { token } = await signInAs(page, DEMO_ADMIN);
  const agent = await wireAgent(page.request, token, HOSTNAME);
  const inventory = (messageId: string, parts: Record<string, unknown>) =>
    agent.sendAcked({ type: 'inventory', messageId, collectedAt: new Date().toISOString(), ...parts });
  try {
    await inventory(`nr-1-${tag}`, {
      notReported: [
        { kind: 'software', reason: REASON },
        { kind: 'services', reason: REASON },
      ],
    });
    await page.goto(`/devices/${agent.guid}`);
    await expect(page.getByRole('heading', { name: HOSTNAME })).toBeVisible();
    await expect(page.getByTestId('inventory-not-reported')).toHaveText(
      `Not reported: software, services (${REASON})`,
    );

    // the software arrives: only the services are still missing
    await inventory(`nr-2-${tag}`, {
      software: [
        { name: 'Notepad++', displayName: null, publisher: null, version: '8.6', installDate: null },
      ],
    });
    await page.reload();
    await expect(page.getByTestId('inventory-not-reported')).toHaveText(`Not reported: services (${REASON})`);
  } finally {
    agent.close();
  }
});
