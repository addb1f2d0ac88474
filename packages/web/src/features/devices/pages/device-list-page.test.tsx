// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiteAccessType } from '@outpost/contract/auth';
import { deviceMessages } from '@outpost/contract/messages';
import { ToastProvider } from '../../../components/ui/toast';
import DeviceListPage from './device-list-page';

// spec: core §2 Device list empty state. A user limited to some sites sees only their sites'
// devices, so an empty list says so instead of claiming no device was ever registered.

let access: SiteAccessType = 'all';
vi.mock('../../../lib/auth', () => ({
  useUser: () => ({ tenant_id: 1, role: 'user', site_access_type: access }),
}));
vi.mock('../../../lib/socket', () => ({
  useLiveSocket: () => ({ status: 'idle' }),
  useSubscriptions: () => undefined,
  useLiveMessages: () => undefined,
}));

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const path = new URL(url, 'http://portal.test').pathname;
      const data =
        path === '/api/customer/devices'
          ? { data: [], pagination: { page: 1, limit: 25, total: 0, totalPages: 0 } }
          : [];
      return Promise.resolve(new Response(JSON.stringify({ success: true, data }), { status: 200 }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  access = 'all';
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter>
          <DeviceListPage />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('an empty device list', () => {
  it('tells a site-limited user there are no devices in their sites', async () => {
    access = 'specific';
    renderPage();
    expect(await screen.findByText(deviceMessages.noDevicesInYourSites)).toBeInTheDocument();
    expect(screen.queryByText(deviceMessages.noDevicesRegistered)).not.toBeInTheDocument();
  });

  it('tells a user who sees every site that no devices have been registered yet', async () => {
    renderPage();
    expect(await screen.findByText(deviceMessages.noDevicesRegistered)).toBeInTheDocument();
    expect(screen.queryByText(deviceMessages.noDevicesInYourSites)).not.toBeInTheDocument();
  });
});
