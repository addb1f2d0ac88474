import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN } from '../../fixtures/env';
import { routes, useTheme } from './routes';

// Accessibility: axe-core over every route of the portal, in light and in dark mode; no serious
// or critical violation is allowed. The routes are in routes.ts.

for (const theme of ['light', 'dark'] as const) {
  for (const route of routes) {
    test(`${route.name} (${theme}) has no serious or critical axe violations`, async ({ page }) => {
      await useTheme(page, theme);
      let path = typeof route.path === 'string' ? route.path : '';
      if (!route.isPublic) {
        const session = await signInAs(page, DEMO_ADMIN);
        if (typeof route.path === 'function') {
          path = await route.path({ request: page.request, token: session.token });
        }
      }
      await page.goto(path);
      await expect(page.locator('h1').first()).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expect(page.getByLabel(/^Loading/)).toHaveCount(0);
      if (theme === 'dark') {
        await expect(page.locator('html')).toHaveClass(/dark/);
      }
      const results = await new AxeBuilder({ page }).analyze();
      const blocking = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          rule: v.id,
          impact: v.impact,
          help: v.help,
          nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
        }));
      expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
    });
  }
}
