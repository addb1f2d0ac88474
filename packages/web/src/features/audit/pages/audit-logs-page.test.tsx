// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AuditListResponse, AuditLogEntry, AuditStats } from '@outpost/contract/audit';
import { adminMessages, messages } from '@outpost/contract/messages';
import { ToastProvider } from '../../../components/ui/toast';
import AuditLogsPage from './audit-logs-page';

// docs/product/activity.md#audit-log — a failed load of the log is logged to the console ('Failed to load
// audit logs') and shown as a failure with Try Again, never as the empty log. The server is a stubbed
// fetch: the list answers in turn, stats, the actions in the log and users always answer.

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ tenant_id: 1, role: 'tenant_admin' }) }));

type Reply = { status: number; body: unknown };
let listReplies: (Reply | Promise<Reply>)[] = [];

const entry: AuditLogEntry = {
  id: 1,
  action: 'Update Site',
  user_id: 4,
  user_name: 'Alex Morgan',
  user_email: 'admin@acme.example',
  user_role: 'tenant_admin',
  resource_type: 'site',
  resource_id: '12',
  created_at: '2026-11-26T08:00:00.000Z',
  ip_address: '10.0.0.8',
  details: 'Updated site London Office',
  old_values: null,
  new_values: null,
  user_agent: null,
};
const list: AuditListResponse = {
  data: [entry],
  pagination: { page: 1, limit: 25, total: 1, totalPages: 1 },
};
const stats: AuditStats = {
  summary: { total_actions: 1, create_actions: 0, update_actions: 1, active_users: 1 },
  period_days: 30,
  activity_by_day: [],
  top_users: [],
};
const users = { data: [], pagination: { page: 1, limit: 100, total: 0, totalPages: 0 } };

const ok = (data: unknown): Reply => ({ status: 200, body: { success: true, data } });

beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string) => {
      const path = new URL(url, 'http://portal.test').pathname;
      const reply =
        path === '/api/customer/audit'
          ? await (listReplies.shift() ?? ok(list))
          : path === '/api/customer/audit/stats'
            ? ok(stats)
            : path === '/api/customer/audit/actions'
              ? ok(['Create User', 'Login'])
              : ok(users);
      return new Response(JSON.stringify(reply.body), { status: reply.status });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  listReplies = [];
});

function renderPage(retries = 0) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: retries, retryDelay: 0 } } });
  render(
    <QueryClientProvider client={client}>
      <ToastProvider>
        <MemoryRouter>
          <AuditLogsPage />
        </MemoryRouter>
      </ToastProvider>
    </QueryClientProvider>,
  );
}

describe('the audit log when its list fails to load', () => {
  it('shows the failure with Try Again, logs it, and Try Again loads the entries', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    listReplies = [{ status: 500, body: { success: false, error: 'Internal server error' } }];
    renderPage();

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent(adminMessages.auditLogsLoad);
    expect(alert).toHaveTextContent('Internal server error');
    expect(screen.queryByText(adminMessages.auditEmpty)).not.toBeInTheDocument();
    expect(screen.queryByText(adminMessages.auditEmptyUnfiltered)).not.toBeInTheDocument();
    expect(screen.queryByText('0 entries')).not.toBeInTheDocument();
    expect(consoleError).toHaveBeenCalledWith(adminMessages.auditLogsLoad, expect.anything());

    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByText('Updated site London Office')).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('still says the log is empty when the server answers with no entries', async () => {
    listReplies = [ok({ data: [], pagination: { page: 1, limit: 25, total: 0, totalPages: 0 } })];
    renderPage();
    expect(await screen.findByText(adminMessages.auditEmpty)).toBeInTheDocument();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });
});

describe('the audit log while a failed load is retried', () => {
  it('says it is retrying, then loads the entries', async () => {
    let sendSecond: (reply: Reply) => void = () => undefined;
    listReplies = [
      { status: 503, body: { success: false, error: 'Service unavailable' } },
      new Promise<Reply>((resolve) => (sendSecond = resolve)),
    ];
    renderPage(1);
    // the skeleton shown while loading is a status too: find the one that says it retries
    const heading = await screen.findByRole('heading', { name: messages.queryRetrying });
    expect(heading.closest('[role="status"]')).toHaveTextContent('Service unavailable');

    sendSecond(ok(list));
    expect(await screen.findByText('Updated site London Office')).toBeInTheDocument();
    expect(screen.queryByText(messages.queryRetrying)).not.toBeInTheDocument();
  });
});
