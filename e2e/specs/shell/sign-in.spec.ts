import { expect, test } from '@playwright/test';
import { messages } from '@outpost/contract/messages';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, DEMO_TECH } from '../../fixtures/env';

test('dev sign-in from the sign-in screen lands on /dashboard', async ({ page }) => {
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: 'Customer Portal' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Development sign-in' })).toBeVisible();
  await page.getByRole('button', { name: new RegExp(DEMO_TECH) }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('sidebar-tenant')).toHaveText('Acme Corp');
  await expect(page.getByTestId('header-user-name')).toHaveText('Taylor Chen');
});

test('the Microsoft button is disabled and says it is coming soon', async ({ page }) => {
  await page.goto('/login');
  const microsoft = page.getByRole('button', { name: /Sign in with Microsoft/ });
  await expect(microsoft).toHaveAttribute('aria-disabled', 'true');
  await expect(microsoft).toContainText('Coming soon');
  // aria-disabled tells assistive technology it is unavailable; a click still explains why.
  await microsoft.click({ force: true });
  await expect(page.getByRole('status').filter({ hasText: messages.microsoftSoon })).toBeVisible();
});

test('an unauthenticated visitor of /devices is sent to /login', async ({ page }) => {
  await page.goto('/devices');
  await expect(page).toHaveURL(/\/login$/);
});

test('a signed-in visitor of /login is sent to /dashboard', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('an unknown path redirects to /dashboard', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/no/such/screen');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', exact: true })).toBeVisible();
});

test('an invalid stored token is removed and the visitor signs in again', async ({ page }) => {
  await page.addInitScript((key) => localStorage.setItem(key, 'not-a-real-token'), STORAGE_KEYS.token);
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test('sign-out returns to /login and forgets the token', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/dashboard');
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate((key) => localStorage.getItem(key), STORAGE_KEYS.token)).toBeNull();
  await page.goto('/devices');
  await expect(page).toHaveURL(/\/login$/);
});
