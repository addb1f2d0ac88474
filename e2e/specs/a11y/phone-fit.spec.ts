import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { openRoute, routes, switchToDark } from './routes';

// Every route fits a phone (390 × 844) in light and dark (opened once, switched as a user does):
// the page itself never scrolls sideways (a wide table may scroll inside its own box, but the
// lists that matter most become card rows on phones). The routes are in routes.ts.

test.use({ viewport: { width: 390, height: 844 } });

const overflow = (page: Page) =>
  page.evaluate(() => ({
    scroll: document.documentElement.scrollWidth,
    viewport: window.innerWidth,
    // what sticks out, to say where to look when it fails
    wide: Array.from(document.querySelectorAll('body *'))
      .filter((el) => el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((el) => !el.closest('[class*="overflow-x-auto"]'))
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${String(el.className).slice(0, 80)}`),
  }));

for (const route of routes) {
  test(`${route.name} fits a 390 px phone without sideways scrolling, in light and in dark`, async ({
    page,
  }) => {
    await openRoute(page, route);
    const light = await overflow(page);
    expect(light.scroll, `light: ${JSON.stringify(light.wide, null, 2)}`).toBeLessThanOrEqual(light.viewport);
    await switchToDark(page, route);
    const dark = await overflow(page);
    expect(dark.scroll, `dark: ${JSON.stringify(dark.wide, null, 2)}`).toBeLessThanOrEqual(dark.viewport);
  });
}

// The busiest lists are card rows on phones: no column headers, nothing to scroll sideways, and
// each row's actions on screen under their own names.
const cardLists = [
  { name: 'devices', route: 'devices', action: /^Restart Device / },
  { name: 'deployments', route: 'deployments', action: /^View / },
  { name: 'deployment devices', route: 'deployment details', action: /^Step logs for / },
  { name: 'agents', route: 'agents', action: /^Delete / },
  { name: 'audit logs', route: 'audit logs', action: /^(Show|Hide) Details$/ },
];

for (const list of cardLists) {
  test(`${list.name}: rows are cards on a phone, actions on screen`, async ({ page }) => {
    await openRoute(
      page,
      routes.find((r) => r.name === list.route)!,
    );
    const table = page.locator('main table').first();
    await expect(table.locator('thead th', { hasNotText: /^$/ }).first()).toBeHidden();
    const fits = await table.evaluate((t) => t.parentElement!.scrollWidth <= t.parentElement!.clientWidth);
    expect(fits).toBe(true);
    const action = table.getByRole('button', { name: list.action }).first();
    await action.scrollIntoViewIfNeeded();
    const box = (await action.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
  });
}
