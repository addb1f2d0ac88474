// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ActivityOverviewPage, DeviceActivityRow } from '@outpost/contract/activity';
import { activityMessages } from '@outpost/contract/activity';
import DeviceActivityPage from './device-activity-page';

// docs/product/activity.md#device-activity-overview loading and error, #utilisation states 'Failed to load device activity
// overview' or the server's text. The server is a stubbed fetch answering like the real one's
// paged overview (docs/architecture.md#device-activity); the addresses asked for are recorded.

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ tenant_id: 1 }) }));

type Reply = { status: number; body: unknown };
let replies: Reply[] = [];
let release: (() => void) | null = null;
let asked: URL[] = [];

beforeEach(() => {
  replies = [];
  asked = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      asked.push(new URL(url, 'http://portal.test'));
      if (release === null) {
        await new Promise<void>((resolve) => (release = resolve));
      }
      const reply = replies.shift() ?? { status: 200, body: { success: true, data: answer([]) } };
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  release = null;
});

function renderPage() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DeviceActivityPage />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const row: DeviceActivityRow = {
  agent_id: 7,
  device_guid: 'g-7',
  device_name: 'Front-Desk',
  site_name: null,
  login_sessions_today: 2,
  utilization_7d: 50,
  utilization_14d: 50,
  utilization_30d: 50,
};

function answer(data: DeviceActivityRow[]): ActivityOverviewPage {
  return {
    data,
    pagination: { page: 1, limit: 50, total: data.length, totalPages: 1 },
    summary: {
      total_devices: data.length,
      active_today: 0,
      inactive_today: data.length,
      total_sessions_today: 0,
      high_utilization_30d: 0,
      distribution: [
        { band: 'high', count: 0 },
        { band: 'good', count: 0 },
        { band: 'moderate', count: data.length },
        { band: 'low', count: 0 },
      ],
      average_utilization: { utilization_7d: 50, utilization_14d: 50, utilization_30d: 50 },
    },
  };
}
const ok = (data: DeviceActivityRow[]) => ({ status: 200, body: { success: true, data: answer(data) } });
const params = (url: URL) => Object.fromEntries(url.searchParams);

describe('the Device Activity page', () => {
  it('shows the spinner text while loading, then the rows', async () => {
    replies.push(ok([row]));
    renderPage();
    expect(screen.getByRole('heading', { name: 'Device Activity' })).toBeInTheDocument();
    expect(
      screen.getByText('Monitor device utilization and login activity across your organization.'),
    ).toBeInTheDocument();
    expect(screen.getByText(activityMessages.overviewLoadingText)).toBeInTheDocument();
    release!();
    expect(await screen.findByRole('link', { name: 'Front-Desk' })).toHaveAttribute('href', '/devices/g-7');
    expect(screen.queryByText(activityMessages.overviewLoadingText)).not.toBeInTheDocument();
  });

  it("shows the server's error text with Try Again, which loads the rows", async () => {
    release = () => undefined;
    replies.push({ status: 500, body: { success: false, error: 'Database unavailable' } });
    replies.push(ok([row]));
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(activityMessages.overviewErrorTitle);
    expect(alert).toHaveTextContent('Database unavailable');
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('link', { name: 'Front-Desk' })).toBeInTheDocument();
  });

  it('falls back to the spec message when the server gives no text', async () => {
    release = () => undefined;
    replies.push({ status: 502, body: {} });
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(activityMessages.overviewErrorTitle);
    expect(alert).toHaveTextContent(activityMessages.overviewLoad);
    expect(alert).not.toHaveTextContent('HTTP error');
  });

  it('asks the paged overview for the first page in the default order', async () => {
    release = () => undefined;
    replies.push(ok([row]));
    renderPage();
    await screen.findByRole('link', { name: 'Front-Desk' });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.pathname).toBe('/api/customer/device-activity/overview');
    expect(params(asked[0]!)).toEqual({ page: '1', limit: '50', sort: 'utilization_30d', order: 'desc' });
  });

  it('a new sort or filter is asked of the server, keeping the table on screen meanwhile', async () => {
    release = () => undefined;
    replies.push(ok([row]));
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Device' }));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(params(asked[1]!)).toMatchObject({ page: '1', sort: 'device', order: 'desc' });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sessions' }), 'Active Today');
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(params(asked[2]!)).toMatchObject({ sessions: 'active', sort: 'device' });
    await user.type(screen.getByPlaceholderText('Search devices or sites...'), 'desk');
    await waitFor(() => expect(asked.map((u) => u.searchParams.get('search'))).toContain('desk'));
    // typing is sent once it pauses, not a letter at a time
    expect(asked.filter((u) => u.searchParams.has('search'))).toHaveLength(1);
    expect(screen.queryByText(activityMessages.overviewLoadingText)).not.toBeInTheDocument();
  });

  it('Refresh asks again for the same page', async () => {
    release = () => undefined;
    replies.push(ok([row]));
    renderPage();
    await screen.findByRole('link', { name: 'Front-Desk' });
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]!.search).toBe(asked[0]!.search);
  });
});
