// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@outpost/contract/users';
import { ToastProvider } from '../../../components/ui/toast';
import { UserDialog } from './user-dialog';

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin' }) }));

const sites = [
  { id: 11, site_name: 'Headquarters', site_code: 'HQ' },
  { id: 12, site_name: 'London Office', site_code: 'LON1' },
];

function renderDialog(user: User | null = null) {
  const onClose = vi.fn();
  const { unmount } = render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <UserDialog user={user} sites={sites} isLoadingSites={false} onClose={onClose} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { onClose, unmount, events: userEvent.setup() };
}

const okFetch = () =>
  vi.fn(
    () =>
      new Response(
        JSON.stringify({ success: true, data: { id: 5, email: 'sam@acme.example', name: 'Sam' } }),
        {
          status: 200,
        },
      ),
  );

describe('Add User and Edit User dialogs (docs/product/administration.md#users)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('requires an email', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { events } = renderDialog();
    await events.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email is required');
    expect(fetch).not.toHaveBeenCalled();
  });

  it('with specific site access, requires a site', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    const { events } = renderDialog();
    await events.type(screen.getByLabelText(/Email/), 'sam@acme.example');
    await events.click(screen.getByRole('radio', { name: /Specific Sites/ }));
    await events.click(screen.getByRole('button', { name: 'Add User' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Please select at least one site or choose "All Sites"',
    );
    expect(fetch).not.toHaveBeenCalled();
  });

  it('sends the role, the access type and the chosen sites', async () => {
    const fetch = okFetch();
    vi.stubGlobal('fetch', fetch);
    const { events, onClose } = renderDialog();
    await events.type(screen.getByLabelText(/Email/), ' sam@acme.example ');
    await events.type(screen.getByLabelText('Name'), 'Sam Rivera');
    await events.selectOptions(screen.getByLabelText('Role'), 'Admin');
    await events.click(screen.getByRole('radio', { name: /Specific Sites/ }));
    await events.click(within(screen.getByRole('group', { name: 'Sites' })).getByLabelText(/London Office/));
    await events.click(screen.getByRole('button', { name: 'Add User' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/api/customer/users');
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string)).toEqual({
      email: 'sam@acme.example',
      name: 'Sam Rivera',
      role: 'tenant_admin',
      site_access_type: 'specific',
      site_ids: [12],
    });
  });

  it('offers the roles as User and Admin', () => {
    renderDialog();
    const options = [...screen.getByLabelText('Role').querySelectorAll('option')].map((o) => o.textContent);
    expect(options).toEqual(['User', 'Admin']);
  });

  it('edits a user with their sites selected, and shows the server error text', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        () =>
          new Response(
            JSON.stringify({
              success: false,
              error:
                'You are the only administrator of this organization and cannot change your own role. Make another user an administrator first.',
            }),
            { status: 409 },
          ),
      ),
    );
    const { events, onClose } = renderDialog({
      id: 1,
      email: 'admin@acme.example',
      name: 'Alex Morgan',
      role: 'tenant_admin',
      status: 'active' as const,
      site_access_type: 'specific',
      assigned_site_ids: '11',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    });
    expect(screen.getByRole('heading', { name: 'Edit User' })).toBeVisible();
    expect(screen.getByLabelText(/Headquarters/)).toBeChecked();
    expect(screen.getByLabelText(/London Office/)).not.toBeChecked();
    await events.selectOptions(screen.getByLabelText('Role'), 'User');
    await events.click(screen.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('cannot change your own role');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('keeps the e-mail of a member who has signed in read-only, and lets an invitation be corrected', () => {
    const member = {
      id: 2,
      email: 'sam@acme.example',
      name: 'Sam Rivera',
      role: 'user' as const,
      site_access_type: 'all' as const,
      assigned_site_ids: '',
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    };
    const { unmount } = renderDialog({ ...member, status: 'active' });
    expect(screen.getByLabelText(/Email/)).toHaveAttribute('readonly');
    expect(screen.getByText(/Fixed since this person signed in/)).toBeVisible();
    unmount();
    renderDialog({ ...member, status: 'invited' });
    expect(screen.getByLabelText(/Email/)).not.toHaveAttribute('readonly');
    expect(screen.queryByText(/Fixed since this person signed in/)).toBeNull();
  });
});
