// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Device } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { ToastProvider } from '../../../components/ui/toast';
import DeviceDetailPage from './device-detail-page';

// docs/product/devices.md#device-detail — a device that fails to load (a server error, no network) reads 'Failed to load
// device' with Try Again; 'Device not found' is only for the server's 404. The server is a stubbed
// fetch answering in turn.

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ tenant_id: 1, role: 'admin' }) }));
vi.mock('../../../lib/socket', () => ({
  useLiveSocket: () => ({ status: 'idle' }),
  useSubscriptions: () => undefined,
  useLiveMessages: () => undefined,
}));

type Reply = { status: number; body: unknown } | 'network-down';
let replies: Reply[] = [];

const device: Device = {
  id: 7,
  device_guid: 'g-7',
  hostname: 'FRONT-DESK',
  ip_address: '10.0.0.7',
  os_type: 'Windows',
  os_version: '11',
  architecture: 'arm64',
  status: 'online',
  last_seen: '2026-11-26T08:00:00.000Z',
  agent_version: '1.0.0',
  site_id: null,
  site_name: null,
  serial_number: null,
  created_at: '2026-11-20T08:00:00.000Z',
  updated_at: '2026-11-26T08:00:00.000Z',
  manufacturer: null,
  model: null,
  last_inventory_update: null,
  hardware_info: null,
  network_info: null,
  not_reported: [],
};

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      // the device's tags (docs/product/device-sets.md#tags) load beside it: none here
      if (String(url).endsWith('/tags')) {
        return Promise.resolve(new Response(JSON.stringify({ success: true, data: [] }), { status: 200 }));
      }
      // the remote access settings (docs/product/remote-access.md) decide the Files tab: off here
      if (String(url).includes('/settings/remote-access')) {
        const off = { files_enabled: false, caller_allowed: false };
        return Promise.resolve(new Response(JSON.stringify({ success: true, data: off }), { status: 200 }));
      }
      const reply = replies.shift() ?? { status: 200, body: { success: true, data: device } };
      if (reply === 'network-down') {
        return Promise.reject(new TypeError('Failed to fetch'));
      }
      return Promise.resolve(new Response(JSON.stringify(reply.body), { status: reply.status }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  replies = [];
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter initialEntries={['/devices/g-7']}>
          <Routes>
            <Route path="/devices/:deviceGuid" element={<DeviceDetailPage />} />
          </Routes>
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('a device that does not load', () => {
  it('says it failed to load on a server error, and Try Again loads it', async () => {
    replies = [{ status: 500, body: { success: false, error: 'Internal server error' } }];
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(deviceMessages.deviceLoad);
    expect(alert).toHaveTextContent('Internal server error');
    expect(screen.queryByText(deviceMessages.deviceNotFound)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('heading', { name: 'FRONT-DESK' })).toBeInTheDocument();
  });

  it('says it failed to load when the server cannot be reached', async () => {
    replies = ['network-down'];
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent(deviceMessages.deviceLoad);
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByText(deviceMessages.deviceNotFound)).not.toBeInTheDocument();
  });

  it('says "Device not found" only for a 404, without Try Again', async () => {
    replies = [{ status: 404, body: { success: false, error: deviceMessages.deviceNotFound } }];
    renderPage();
    expect(await screen.findByRole('heading', { name: deviceMessages.deviceNotFound })).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try Again' })).not.toBeInTheDocument();
  });
});

describe('the overview', () => {
  it('shows the CPU architecture the agent reports next to the operating system', async () => {
    renderPage();
    const label = await screen.findByText('Architecture');
    expect(label.nextElementSibling ?? label.parentElement).toHaveTextContent('arm64');
  });

  it('says which inventory parts the agent did not report, and why, and nothing when it reported all', async () => {
    const reason = 'PowerShell is not available on this device';
    replies = [
      {
        status: 200,
        body: {
          success: true,
          data: {
            ...device,
            not_reported: [
              { kind: 'network', reason: 'The network inventory did not answer within 60 s' },
              { kind: 'software', reason },
              { kind: 'services', reason },
            ],
          },
        },
      },
    ];
    renderPage();
    expect(await screen.findByTestId('inventory-not-reported')).toHaveTextContent(
      `Not reported: network (The network inventory did not answer within 60 s); software, services (${reason})`,
    );
    cleanup();
    renderPage();
    await screen.findByRole('heading', { name: 'FRONT-DESK' });
    expect(screen.queryByTestId('inventory-not-reported')).not.toBeInTheDocument();
  });
});
