// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Site } from '@outpost/contract/sites';
import { ToastProvider } from '../../../components/ui/toast';
import { SiteDialog } from './site-dialog';

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin' }) }));

function renderDialog(site: Site | null = null) {
  const onClose = vi.fn();
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <SiteDialog site={site} onClose={onClose} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { onClose, user: userEvent.setup() };
}

const submit = () => screen.getByRole('button', { name: /^(Create Site|Save Changes)$/ });

describe('Create Site dialog (docs/product/administration.md#sites)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('upper-cases the site code as it is typed', async () => {
    const { user } = renderDialog();
    await user.type(screen.getByLabelText(/Site Code/), 'lon1');
    expect(screen.getByLabelText(/Site Code/)).toHaveValue('LON1');
  });

  it.each([
    ['', 'Headquarters', 'Site name and code are required'],
    ['HQ', '', 'Site name and code are required'],
    ['ABCDEFG', 'Headquarters', 'Site code must be 6 characters or less'],
    ['HQ-1', 'Headquarters', 'Site code must contain only uppercase letters and numbers'],
    ['H Q', 'Headquarters', 'Site code must contain only uppercase letters and numbers'],
  ])('code %j with name %j says %j and sends nothing', async (code, name, message) => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { user } = renderDialog();
    if (name) {
      await user.type(screen.getByLabelText(/Site Name/), name);
    }
    if (code) {
      await user.type(screen.getByLabelText(/Site Code/), code);
    }
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(message);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('offers the spec timezones and omits empty optional fields', async () => {
    const fetch = vi.fn(
      () =>
        new Response(
          JSON.stringify({ success: true, data: { id: 3, site_name: 'Tokyo Lab', site_code: 'TYO' } }),
          {
            status: 200,
          },
        ),
    );
    vi.stubGlobal('fetch', fetch);
    const { user, onClose } = renderDialog();
    const zone = screen.getByLabelText('Timezone');
    expect([...zone.querySelectorAll('option')].map((o) => o.textContent)).toEqual([
      'Not set',
      'New York (America/New_York)',
      'Chicago (America/Chicago)',
      'Denver (America/Denver)',
      'Los Angeles (America/Los_Angeles)',
      'London (Europe/London)',
      'Paris (Europe/Paris)',
      'Berlin (Europe/Berlin)',
      'Tokyo (Asia/Tokyo)',
      'Shanghai (Asia/Shanghai)',
      'Sydney (Australia/Sydney)',
    ]);
    await user.type(screen.getByLabelText(/Site Name/), '  Tokyo Lab ');
    await user.type(screen.getByLabelText(/Site Code/), 'tyo');
    await user.type(screen.getByLabelText('City'), 'Tokyo');
    await user.selectOptions(zone, 'Asia/Tokyo');
    await user.click(submit());
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/customer/sites');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({
      site_name: 'Tokyo Lab',
      site_code: 'TYO',
      city: 'Tokyo',
      timezone: 'Asia/Tokyo',
    });
  });

  it('shows the server error text when the save fails', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Response(
            JSON.stringify({
              success: false,
              error: 'A site with the code HQ already exists in this organization',
            }),
            { status: 409 },
          ),
      ),
    );
    const { user, onClose } = renderDialog();
    await user.type(screen.getByLabelText(/Site Name/), 'Second HQ');
    await user.type(screen.getByLabelText(/Site Code/), 'hq');
    await user.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'A site with the code HQ already exists in this organization',
    );
    expect(onClose).not.toHaveBeenCalled();
  });

  it('editing, sends a cleared field empty so that it is cleared', async () => {
    const fetch = vi.fn(
      () =>
        new Response(JSON.stringify({ success: true, data: { id: 3, site_name: 'HQ', site_code: 'HQ' } }), {
          status: 200,
        }),
    );
    vi.stubGlobal('fetch', fetch);
    const site: Site = {
      id: 3,
      site_name: 'Headquarters',
      site_code: 'HQ',
      description: null,
      address: null,
      city: 'New York',
      state: null,
      country: 'United States',
      postal_code: null,
      timezone: 'America/New_York',
      device_count: 4,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    const { user } = renderDialog(site);
    expect(screen.getByRole('heading', { name: 'Edit Site' })).toBeVisible();
    await user.clear(screen.getByLabelText('City'));
    await user.click(submit());
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/customer/sites/3');
    expect(init.method).toBe('PUT');
    expect(JSON.parse(init.body as string)).toEqual({
      site_name: 'Headquarters',
      site_code: 'HQ',
      city: '',
      country: 'United States',
      timezone: 'America/New_York',
    });
  });
});
