// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SiteAccessType } from '@outpost/contract/auth';
import { deviceMessages, messages } from '@outpost/contract/messages';
import { ToastProvider } from '../../../components/ui/toast';
import DeviceListPage from './device-list-page';

// docs/product/devices.md#device-list. A user limited to some sites sees only their sites'
// devices, so an empty list says so instead of claiming no device was ever registered.
// docs/architecture.md#web-app — a failed load is retried; meanwhile the list says it is retrying, and the final
// failure shows the error with Try Again.

let access: SiteAccessType = 'all';
vi.mock('../../../lib/auth', () => ({
  useUser: () => ({ tenant_id: 1, role: 'user', site_access_type: access }),
}));
vi.mock('../../../lib/socket', () => ({
  useLiveSocket: () => ({ status: 'idle' }),
  useSubscriptions: () => undefined,
  useLiveMessages: () => undefined,
}));

/** Answers of the device list, in turn: a reply, or one the test sends later. */
type Reply = { status: number; body: unknown };
let listReplies: (Reply | Promise<Reply>)[] = [];
const emptyList = { data: [], pagination: { page: 1, limit: 25, total: 0, totalPages: 0 } };
const serverError: Reply = { status: 500, body: { success: false, error: 'Internal server error' } };

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://portal.test').pathname;
      const reply =
        path === '/api/customer/devices'
          ? await (listReplies.shift() ?? { status: 200, body: { success: true, data: emptyList } })
          : { status: 200, body: { success: true, data: [] } };
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  access = 'all';
  listReplies = [];
});

/** `retries`: how often a failed load is tried again (the app's client: three times, with delays). */
function renderPage(retries = 0) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: retries, retryDelay: 0 } } });
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

describe('a device list that fails to load', () => {
  it('says it is retrying while the load is tried again, then shows the error with Try Again', async () => {
    let sendSecond: (reply: Reply) => void = () => undefined;
    listReplies = [serverError, new Promise<Reply>((resolve) => (sendSecond = resolve))];
    renderPage(1);

    const heading = await screen.findByRole('heading', { name: messages.queryRetrying });
    expect(heading.closest('[role="status"]')).toHaveTextContent('Internal server error');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    sendSecond(serverError);
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Internal server error');
    expect(screen.getByRole('button', { name: 'Try Again' })).toBeInTheDocument();
    expect(screen.queryByText(messages.queryRetrying)).not.toBeInTheDocument();
  });
});
