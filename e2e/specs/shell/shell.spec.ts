import { expect, test } from '@playwright/test';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, DEMO_TECH } from '../../fixtures/env';

test('dark mode and the minimised sidebar survive a reload', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await page.getByRole('button', { name: 'Minimize sidebar' }).click();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await page.reload();
  await expect(page.locator('html')).toHaveClass(/dark/);
  await expect(page.locator('aside[data-minimized="true"]')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Expand sidebar' })).toBeVisible();
  expect(
    await page.evaluate(
      (k) => [localStorage.getItem(k.darkMode), localStorage.getItem(k.sidebarMinimized)],
      STORAGE_KEYS,
    ),
  ).toEqual(['true', 'true']);
});

test('switching organisation changes the tenant name in the sidebar', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/dashboard');
  await expect(page.getByTestId('sidebar-tenant')).toHaveText('Acme Corp');
  await page.getByRole('button', { name: 'Switch organization' }).click();
  await expect(page.getByRole('menuitem', { name: /Acme Corp/ })).toBeDisabled();
  await page.getByRole('menuitem', { name: /Globex/ }).click();
  await expect(page.getByTestId('sidebar-tenant')).toHaveText('Globex');
  await expect(page.getByTestId('current-organization')).toHaveText('Globex');
});

test('the organisation switcher is hidden for a user with one organisation', async ({ page }) => {
  await signInAs(page, DEMO_TECH);
  await page.goto('/dashboard');
  await expect(page.getByTestId('sidebar-tenant')).toHaveText('Acme Corp');
  await expect(page.getByRole('button', { name: 'Switch organization' })).toHaveCount(0);
});

test('the sidebar marks Devices active on a device sub-path and shows every group', async ({ page }) => {
  await signInAs(page, DEMO_TECH);
  await page.goto('/devices/some-device');
  const nav = page.getByRole('complementary');
  await expect(nav.getByRole('link', { name: 'Devices', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  await expect(nav.getByRole('link', { name: 'Dashboard', exact: true })).not.toHaveAttribute(
    'aria-current',
    'page',
  );
  for (const name of [
    'Dashboard',
    'Device Activity',
    'Packages',
    'Deployments',
    'Users',
    'Agents',
    'Sites',
    'Audit Logs',
    'Profile',
  ]) {
    await expect(nav.getByRole('link', { name, exact: true })).toBeVisible();
  }
  await expect(nav.getByText('Management')).toBeVisible();
});

test('the user menu opens the profile, whose changes are saved on the server', async ({ page }) => {
  await signInAs(page, DEMO_TECH);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Your profile' }).click();
  await expect(page).toHaveURL(/\/profile$/);
  for (const tab of ['Profile', 'Security', 'Notifications', 'Billing', 'Usage']) {
    await expect(page.getByRole('tab', { name: tab })).toBeVisible();
  }
  const company = `Acme Field Services ${Date.now()}`;
  await page.getByLabel('Company').fill(company);
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Profile saved')).toBeVisible();
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await page.getByRole('switch', { name: 'Weekly reports' }).click();
  await page.getByRole('button', { name: 'Save preferences' }).click();
  await expect(page.getByText('Profile saved').first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Company')).toHaveValue(company);
  await page.getByRole('tab', { name: 'Notifications' }).click();
  await expect(page.getByRole('switch', { name: 'Weekly reports' })).toHaveAttribute('aria-checked', 'true');
});

test('the mobile menu opens the navigation on a narrow screen', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const drawer = page.getByRole('dialog', { name: 'Navigation' });
  await drawer.getByRole('link', { name: 'Sites' }).click();
  await expect(page).toHaveURL(/\/sites$/);
  await expect(drawer).toHaveCount(0);
});
