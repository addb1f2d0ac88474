// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ToastProvider } from '../ui/toast';
import { MaintenanceDialog } from './maintenance-dialog';

vi.mock('../../lib/auth', () => ({ useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin' }) }));

function renderDialog() {
  const onClose = vi.fn();
  const fetch = vi.fn(() =>
    Promise.resolve(
      new Response(
        JSON.stringify({
          success: true,
          data: {
            maintenance: { until: '2026-11-27T12:00:00Z', reason: null, set_by: 'Ann', scope: 'device' },
          },
        }),
        { status: 200 },
      ),
    ),
  );
  vi.stubGlobal('fetch', fetch);
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <MaintenanceDialog target={{ kind: 'devices', id: 'guid-1' }} name="WS-001" onClose={onClose} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  return { onClose, fetch, user: userEvent.setup() };
}

const sent = (fetch: ReturnType<typeof vi.fn>) => {
  const [url, init] = fetch.mock.calls[0] as unknown as [string, RequestInit];
  return { url, method: init.method, body: JSON.parse(init.body as string) as unknown };
};

describe('the maintenance dialog (docs/product/monitoring.md#maintenance-mode)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('sends the chosen preset and the reason', async () => {
    const { user, fetch, onClose } = renderDialog();
    expect(screen.getByRole('radio', { name: '1 hour' })).toHaveAttribute('aria-checked', 'true');
    await user.click(screen.getByRole('radio', { name: '4 hours' }));
    await user.type(screen.getByLabelText('Reason'), 'Disk swap');
    await user.click(screen.getByRole('button', { name: 'Start maintenance' }));
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(sent(fetch)).toEqual({
      url: '/api/customer/devices/guid-1/maintenance',
      method: 'PUT',
      body: { minutes: 240, reason: 'Disk swap' },
    });
  });

  it('refuses a custom duration out of bounds before sending anything', async () => {
    const { user, fetch } = renderDialog();
    await user.click(screen.getByRole('radio', { name: 'Custom' }));
    await user.clear(screen.getByLabelText('Custom duration'));
    await user.type(screen.getByLabelText('Custom duration'), '3');
    await user.selectOptions(screen.getByLabelText('Unit'), 'minutes');
    await user.click(screen.getByRole('button', { name: 'Start maintenance' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Maintenance lasts 5 minutes to 30 days');
    expect(fetch).not.toHaveBeenCalled();
    await user.clear(screen.getByLabelText('Custom duration'));
    await user.type(screen.getByLabelText('Custom duration'), '90');
    await user.click(screen.getByRole('button', { name: 'Start maintenance' }));
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    expect(sent(fetch).body).toEqual({ minutes: 90 });
  });
});
