import { expect, test } from '@playwright/test';
import { openRoute, routes } from './routes';

// The first Tab stop of every signed-in page is a "Skip to main content" link,
// shown when focused; it moves the focus to the page's content, so the page's first action is a
// few Tab presses away (it was 15: every navigation link and the header came first). Each stop
// on the way shows where the focus is.

const MAX_TAB_PRESSES = 5;

const focusIsVisible = () => {
  const el = document.activeElement;
  if (!el || el === document.body) {
    return false;
  }
  const style = getComputedStyle(el);
  const hasOutline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
  return hasOutline || style.boxShadow !== 'none';
};

for (const route of routes.filter((r) => !r.isPublic)) {
  test(`${route.name}: the first action is at most ${MAX_TAB_PRESSES} Tab presses away`, async ({ page }) => {
    await openRoute(page, route);
    await page.keyboard.press('Tab');
    const skip = page.getByRole('link', { name: 'Skip to main content' });
    await expect(skip).toBeFocused();
    const box = await skip.boundingBox();
    expect(box && box.width > 40 && box.height > 20 && box.x >= 0 && box.y >= 0).toBe(true);
    expect(await page.evaluate(focusIsVisible)).toBe(true);
    await page.keyboard.press('Enter');
    await expect(page.locator('main')).toBeFocused();
    await expect(skip).not.toBeInViewport();

    let presses = 1;
    let isInMain = false;
    while (!isInMain && presses < 20) {
      await page.keyboard.press('Tab');
      presses += 1;
      isInMain = await page.evaluate(() => {
        const el = document.activeElement;
        const main = document.querySelector('main');
        return Boolean(el && main && el !== main && main.contains(el));
      });
    }
    expect(presses).toBeLessThanOrEqual(MAX_TAB_PRESSES);
    expect(await page.evaluate(focusIsVisible)).toBe(true);
  });
}
