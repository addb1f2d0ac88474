// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { adminMessages } from '@outpost/contract/messages';
import type { User } from '@outpost/contract/users';
import { ToastProvider } from '../../../components/ui/toast';
import UsersPage from './users-page';

vi.mock('../../../lib/auth', () => ({
  useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin', tenant_name: 'Acme' }),
}));

const user = (id: number, extra: Partial<User> = {}): User => ({
  id,
  email: `u${id}@acme.example`,
  name: `User ${id}`,
  role: 'user',
  status: 'active',
  site_access_type: 'all',
  assigned_site_ids: '',
  created_at: '2026-11-20T09:00:00.000Z',
  updated_at: '2026-11-20T09:00:00.000Z',
  ...extra,
});

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200 });

function stubServer(adminCount: number) {
  const users = [
    user(1, { role: 'tenant_admin' }),
    user(2, { site_access_type: 'specific', assigned_site_ids: '11,12' }),
  ];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      if (url.startsWith('/api/customer/users')) {
        const isAdminCount = url.includes('role=tenant_admin');
        const total = isAdminCount ? adminCount : users.length;
        return Promise.resolve(
          ok({
            data: isAdminCount ? users.slice(0, 1) : users,
            pagination: { page: 1, limit: 25, total, totalPages: 1 },
          }),
        );
      }
      if (url.startsWith('/api/customer/devices/sites/list')) {
        return Promise.resolve(
          ok([
            { id: 11, site_name: 'Headquarters', site_code: 'HQ' },
            { id: 12, site_name: 'London Office', site_code: 'LON1' },
          ]),
        );
      }
      return Promise.resolve(ok([]));
    }),
  );
}

function renderPage() {
  render(
    <MemoryRouter>
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <UsersPage />
        </ToastProvider>
      </QueryClientProvider>
    </MemoryRouter>,
  );
  return userEvent.setup();
}

describe('Users list', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('disables your own Delete with the reason: the last administrator', async () => {
    stubServer(1);
    renderPage();
    const own = await screen.findByRole('button', { name: 'Delete u1@acme.example' });
    expect(own).toHaveAttribute('aria-disabled', 'true');
    expect(await screen.findByRole('tooltip')).toHaveTextContent(adminMessages.lastAdminDelete);
    expect(own).toHaveAccessibleDescription(adminMessages.lastAdminDelete);
    expect(screen.getByRole('checkbox', { name: 'Select u1@acme.example' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Delete u2@acme.example' })).not.toHaveAttribute(
      'aria-disabled',
    );
  });

  it('with another administrator, says that they can remove you', async () => {
    stubServer(2);
    renderPage();
    const own = await screen.findByRole('button', { name: 'Delete u1@acme.example' });
    await vi.waitFor(() => expect(own).toHaveAccessibleDescription(adminMessages.ownDelete));
  });

  it('offers Delete Selected only with a selection, in the selection bar', async () => {
    stubServer(1);
    const events = renderPage();
    await screen.findByRole('button', { name: 'Delete u2@acme.example' });
    expect(screen.queryByRole('button', { name: /Delete Selected/ })).not.toBeInTheDocument();
    await events.click(screen.getByRole('checkbox', { name: 'Select all users' }));
    const bar = screen.getByRole('region', { name: 'Bulk actions' });
    expect(within(bar).getByText('1 user selected')).toBeInTheDocument();
    expect(within(bar).getByRole('button', { name: 'Delete Selected (1)' })).toBeInTheDocument();
  });

  it('shows sites by name, not code, and names the actions column for screen readers', async () => {
    stubServer(1);
    renderPage();
    expect(await screen.findByText('London Office')).toBeInTheDocument();
    expect(screen.getByText('Headquarters')).toBeInTheDocument();
    expect(screen.queryByText('LON1')).not.toBeInTheDocument();
    expect(screen.getByRole('columnheader', { name: 'Actions' })).toBeInTheDocument();
    // headers do not wrap at 1280 px
    expect(screen.getByRole('columnheader', { name: 'Site Access' })).toHaveClass('whitespace-nowrap');
  });
});
