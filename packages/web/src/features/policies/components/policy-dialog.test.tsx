// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../../../components/ui/toast';
import { PolicyDialog } from './policy-dialog';

// The Create Policy dialog (docs/product/device-sets.md#automation-policies): the targets it offers,
// and the body it sends.

const me = { id: 1, tenant_id: 7, role: 'tenant_admin', site_access_type: 'all' };
vi.mock('../../../lib/auth', () => ({ useUser: () => me }));

const json = (status: number, data: unknown) =>
  new Response(
    JSON.stringify(status < 400 ? { success: true, data } : { success: false, error: 'Not found' }),
    {
      status,
      headers: { 'content-type': 'application/json' },
    },
  );

/** The server: two sites, one package, and groups (or no groups route: 404). */
function stubServer(groups: { id: number; name: string }[] | null) {
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    if (url.includes('/customer/devices/sites/list')) {
      return Promise.resolve(json(200, [{ id: 2, site_name: 'London', site_code: 'LON' }]));
    }
    if (url.includes('/customer/deployment-packages')) {
      return Promise.resolve(json(200, { data: [{ id: 9, name: 'Edge', package_version: '1.0.0' }] }));
    }
    if (url.includes('/customer/groups')) {
      return Promise.resolve(groups === null ? json(404, null) : json(200, { data: groups }));
    }
    if (url.endsWith('/customer/policies') && init?.method === 'POST') {
      return Promise.resolve(json(200, { id: 1, name: 'Weekly' }));
    }
    return Promise.resolve(json(404, null));
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

function renderDialog() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <PolicyDialog policy={null} onClose={vi.fn()} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return userEvent.setup();
}

const targetOptions = () =>
  within(screen.getByLabelText(/^Target/))
    .getAllByRole('option')
    .map((o) => o.textContent);

describe('Create Policy dialog', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('hides the group target when the server has no groups', async () => {
    stubServer(null);
    renderDialog();
    await screen.findByRole('option', { name: 'Edge 1.0.0' });
    expect(targetOptions()).toEqual(['All devices', 'A site']);
  });

  it('offers groups when there are, and sends a weekly schedule', async () => {
    const fetch = stubServer([{ id: 4, name: 'Kiosks' }]);
    const user = renderDialog();
    await waitFor(() => expect(targetOptions()).toEqual(['All devices', 'A site', 'A group']));
    await user.type(screen.getByLabelText(/^Name/), 'Weekly');
    await user.selectOptions(screen.getByLabelText(/^Target/), 'group');
    await user.selectOptions(screen.getByLabelText(/^Group/), '4');
    await user.selectOptions(screen.getByLabelText(/^Package/), '9');
    await user.click(screen.getByRole('button', { name: 'Friday' }));
    await user.click(screen.getByRole('button', { name: 'Create Policy' }));
    await waitFor(() =>
      expect(fetch).toHaveBeenCalledWith(expect.stringContaining('/customer/policies'), expect.anything()),
    );
    const call = fetch.mock.calls.find(
      ([url, init]) => url.endsWith('/customer/policies') && init?.method === 'POST',
    );
    expect(JSON.parse(call?.[1]?.body as string)).toMatchObject({
      name: 'Weekly',
      target_type: 'group',
      group_id: 4,
      site_id: null,
      package_id: 9,
      trigger: 'schedule',
      schedule: { frequency: 'weekly', time: '02:00', weekdays: [1, 5] },
    });
  });
});
