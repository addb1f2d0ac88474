import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import type { Page } from '@playwright/test';
import { SSO_CALLBACK_PATH } from '@outpost/contract/sso';
import type { SsoProviderBody } from '@outpost/contract/sso';
import { apiSignIn, signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, E2E_BASE_URL } from '../../fixtures/env';
import { startOidcProvider } from '../../fixtures/oidc-provider';
import { useTheme } from '../a11y/routes';

// docs/product/sign-in.md#single-sign-on — the whole browser flow through a real provider's login
// page (oidc-provider), and the SSO screen (light and dark, axe clean).

let idp: Awaited<ReturnType<typeof startOidcProvider>>;
const DOMAIN = 'sso-e2e.acme.example';

test.beforeAll(async ({ request }) => {
  idp = await startOidcProvider({
    client_id: 'outpost-e2e',
    client_secret: 'e2e-client-secret',
    redirect_uri: `${E2E_BASE_URL}${SSO_CALLBACK_PATH}`,
  });
  const admin = await apiSignIn(request, DEMO_ADMIN);
  const body: SsoProviderBody = {
    issuer: idp.issuer,
    client_id: 'outpost-e2e',
    client_secret: 'e2e-client-secret',
    allowed_domains: [DOMAIN],
    jit_enabled: true,
    default_role: 'user',
    groups_claim: 'groups',
    mappings: [{ group: 'outpost-admins', role: 'tenant_admin', site_ids: null }],
  };
  const res = await request.put('/api/customer/sso-provider', {
    headers: { authorization: `Bearer ${admin.token}` },
    data: body,
  });
  expect(res.status(), await res.text()).toBe(200);
});
test.afterAll(async () => {
  await idp.close();
});

async function signInThroughProvider(page: Page, email: string) {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.getByLabel('Work e-mail').fill(email);
  await page.getByRole('button', { name: 'Continue with SSO' }).click();
  // the provider's own login page
  await expect(page).toHaveURL(new RegExp(`^${idp.issuer}/interaction/`));
  await page.getByPlaceholder('Enter any login').fill(email);
  await page.getByPlaceholder('and password').fill('any password');
  await page.getByRole('button', { name: 'Sign-in' }).click();
}

test('a person of the allowed domain signs in through the provider and lands on the dashboard', async ({
  page,
}) => {
  const email = `pat.${Date.now().toString(36)}@${DOMAIN}`;
  idp.accounts.set(email, { email, name: 'Pat Provider', groups: ['outpost-admins'] });
  await signInThroughProvider(page, email);
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('sidebar-tenant')).toHaveText('Acme Corp');
  await expect(page.getByTestId('header-user-name')).toHaveText('Pat Provider');
  // the session token is not left in the address
  expect(page.url()).not.toContain('sso_token');
});

test('a refusal comes back to the sign-in screen in words', async ({ page }) => {
  const email = `outsider.${Date.now().toString(36)}@${DOMAIN}`;
  idp.accounts.set(email, { email: 'outsider@elsewhere.example' });
  await signInThroughProvider(page, email);
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByText('Login failed: E-mail addresses at elsewhere.example may not sign in'),
  ).toBeVisible();
});

test('an unknown domain is answered on the sign-in screen', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('button', { name: 'Sign in with SSO' }).click();
  await page.getByLabel('Work e-mail').fill('someone@nobody-uses-sso.example');
  await page.getByRole('button', { name: 'Continue with SSO' }).click();
  await expect(
    page.getByText(/No organization signs in with single sign-on for this e-mail domain/),
  ).toBeVisible();
});

for (const theme of ['light', 'dark'] as const) {
  test(`the SSO screen shows the provider without its secret (${theme}, axe clean)`, async ({ page }) => {
    await useTheme(page, theme);
    await signInAs(page, DEMO_ADMIN);
    await page.goto('/sso');
    await expect(page.getByRole('heading', { name: 'Single Sign-On', level: 1 })).toBeVisible();
    await expect(page.getByLabel('Issuer URL')).toHaveValue(idp.issuer);
    await expect(page.getByLabel('Client secret')).toHaveValue('');
    await expect(page.getByText('A secret is stored (encrypted). Leave empty to keep it.')).toBeVisible();
    await expect(page.getByText(`${E2E_BASE_URL}${SSO_CALLBACK_PATH}`)).toBeVisible();
    await expect(page.getByLabel('Group or role value')).toHaveValue('outpost-admins');
    await page.screenshot({ path: `test-results/sso-screen-${theme}.png`, fullPage: true });
    const results = await new AxeBuilder({ page }).analyze();
    const blocking = results.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(blocking.map((v) => `${v.id}: ${v.nodes[0]?.target.join(' ')}`)).toEqual([]);
  });
}

test('an administrator changes the mapping on the SSO screen and it is kept', async ({ page }) => {
  await signInAs(page, DEMO_ADMIN);
  await page.goto('/sso');
  await page.getByRole('button', { name: 'Add mapping' }).click();
  await page.getByLabel('Group or role value').nth(1).fill('helpdesk');
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Single sign-on saved')).toBeVisible();
  await page.reload();
  await expect(page.getByLabel('Group or role value').nth(1)).toHaveValue('helpdesk');
});
