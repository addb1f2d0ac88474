import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';

// The server sends a strict Content-Security-Policy (no 'unsafe-eval'). Nothing the app runs may
// break it, not even a caught probe: Chrome lists every violation in its Issues panel and
// Lighthouse's best-practices score counts them (bench/RESULTS.md, web). Read over the DevTools
// protocol, as Lighthouse reads them.
const pages = ['/login', '/dashboard', '/devices', '/packages', '/deployments', '/device-activity'];

test('no page of the portal violates its Content-Security-Policy', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  const cdp = await page.context().newCDPSession(page);
  const violations: string[] = [];
  cdp.on('Audits.issueAdded', ({ issue }) => {
    if (issue.code === 'ContentSecurityPolicyIssue') {
      violations.push(`${page.url()}: ${JSON.stringify(issue.details.contentSecurityPolicyIssueDetails)}`);
    }
  });
  await cdp.send('Audits.enable');
  for (const path of pages) {
    await page.goto(path);
    await expect(page.locator('h1').first()).toBeVisible();
    await page.waitForLoadState('networkidle');
  }
  expect(violations).toEqual([]);
});
