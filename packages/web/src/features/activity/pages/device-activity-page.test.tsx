// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { DeviceActivityRow } from '@outpost/contract/activity';
import { activityMessages } from '@outpost/contract/activity';
import DeviceActivityPage from './device-activity-page';

// spec: operations §2.11 loading and error, §4 states, §8 'Failed to load device activity
// overview' or the server's text. The server is a stubbed fetch answering like the real one.

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ tenant_id: 1 }) }));

type Reply = { status: number; body: unknown };
let replies: Reply[] = [];
let release: (() => void) | null = null;

beforeEach(() => {
  replies = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => {
      if (release === null) {
        await new Promise<void>((resolve) => (release = resolve));
      }
      const reply = replies.shift() ?? { status: 200, body: { success: true, data: [] } };
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

describe('the Device Activity page', () => {
  it('shows the spinner text while loading, then the rows', async () => {
    replies.push({ status: 200, body: { success: true, data: [row] } });
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
    replies.push({ status: 200, body: { success: true, data: [row] } });
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
});
