import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { openRoute, routes, switchToDark } from './routes';

// Accessibility: axe-core over every route of the portal, in light and in dark mode; no serious
// or critical violation is allowed. The routes are in routes.ts. Each route is opened once (in
// light, the default) and switched to dark the way a user does.

async function blockingViolations(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
}

for (const route of routes) {
  test(`${route.name} has no serious or critical axe violations, in light and in dark`, async ({ page }) => {
    await openRoute(page, route);
    const light = await blockingViolations(page);
    expect(light, `light: ${JSON.stringify(light, null, 2)}`).toEqual([]);
    await switchToDark(page, route);
    const dark = await blockingViolations(page);
    expect(dark, `dark: ${JSON.stringify(dark, null, 2)}`).toEqual([]);
  });
}
