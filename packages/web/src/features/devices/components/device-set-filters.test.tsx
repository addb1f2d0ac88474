// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useDeviceSetFilters } from '../lib/use-device-set-filters';
import { DeviceSetFilters } from './device-set-filters';

// docs/product/device-sets.md#device-list-filters: the tag, group and custom-field filters, in
// the address; the group and field filters hide when the server has no such call (404).

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ tenant_id: 1, role: 'user' }) }));

let answers: Record<string, { status: number; data: unknown }> = {};
beforeEach(() => {
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const path = new URL(url, 'http://portal.test').pathname;
      const a = answers[path] ?? { status: 404, data: null };
      const body =
        a.status === 200 ? { success: true, data: a.data } : { success: false, error: 'Not found' };
      return Promise.resolve(new Response(JSON.stringify(body), { status: a.status }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  answers = {};
});

function Harness() {
  const state = useDeviceSetFilters(() => undefined);
  const location = useLocation();
  return (
    <>
      <DeviceSetFilters state={state} />
      <output aria-label="address">{location.search}</output>
    </>
  );
}

function renderAt(path: string) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[path]}>
        <Harness />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const tags = [{ id: 4, name: 'Kiosk', color: 'teal', device_count: 2, created_at: '2026-11-26T00:00:00Z' }];

describe('device set filters', () => {
  it('puts the chosen tag in the address', async () => {
    answers['/api/customer/tags'] = { status: 200, data: tags };
    renderAt('/devices');
    const select = screen.getByRole('combobox', { name: 'Tag' });
    await screen.findByRole('option', { name: 'Kiosk' });
    await userEvent.selectOptions(select, 'Kiosk');
    expect(screen.getByLabelText('address')).toHaveTextContent('?tag_id=4');
  });

  it('hides the group and field filters when the server has no groups or custom fields', async () => {
    answers['/api/customer/tags'] = { status: 200, data: tags };
    renderAt('/devices');
    await screen.findByRole('option', { name: 'Kiosk' });
    expect(screen.queryByRole('combobox', { name: 'Group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Filter by custom field/ })).not.toBeInTheDocument();
  });

  it('keeps a group from the address even without the groups call', async () => {
    renderAt('/devices?group_id=7');
    const group = await screen.findByRole('combobox', { name: 'Group' });
    expect(group).toHaveValue('7');
    expect(screen.getByRole('option', { name: 'Group #7' })).toBeInTheDocument();
  });

  it('lists groups and fields when the server has them, and shows an active field filter', async () => {
    answers['/api/customer/groups'] = { status: 200, data: { data: [{ id: 2, name: 'Servers' }] } };
    answers['/api/customer/custom-fields'] = {
      status: 200,
      data: [{ key: 'owner', name: 'Owner', field_type: 'text', options: [] }],
    };
    renderAt('/devices?field_key=owner&field_value=Finance');
    expect(await screen.findByRole('option', { name: 'Servers' })).toBeInTheDocument();
    expect(await screen.findByText('Owner is Finance')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Remove the custom field filter' }));
    expect(screen.getByLabelText('address')).toHaveTextContent(/^$/);
    expect(await screen.findByRole('button', { name: /Filter by custom field/ })).toBeInTheDocument();
  });
});
