// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { ReactNode } from 'react';
import { cleanup, render, screen } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@outpost/contract/auth';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { AuthProvider, profileQueryKey } from '../../../lib/auth';
import { StorageUsageBar, StorageUsageLabel } from './storage-usage';

// The organisation's storage quota where files are uploaded (SECURITY.md R2-14).

const TOKEN = 'test-token';
const user = { id: 1, tenant_id: 7, name: 'Alex', email: 'a@x', role: 'user' } as unknown as SessionUser;
const GiB = 1024 ** 3;

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('StorageUsageBar', () => {
  it('shows what is used of the quota, as a label and a meter', () => {
    render(<StorageUsageBar usage={{ used_bytes: 2.5 * GiB, quota_bytes: 10 * GiB, file_count: 3 }} />);
    expect(screen.getByText('Storage: 2.5 GB of 10 GB used')).toBeInTheDocument();
    const meter = screen.getByRole('meter', { name: 'Storage used' });
    expect(meter).toHaveAttribute('aria-valuenow', '25');
    expect(meter.parentElement).toHaveAttribute('data-level', 'ok');
  });

  it('turns amber above 75 % and red above 90 %, and never shows more than full', () => {
    const { rerender } = render(
      <StorageUsageBar usage={{ used_bytes: 8 * GiB, quota_bytes: 10 * GiB, file_count: 1 }} />,
    );
    expect(screen.getByRole('meter').parentElement).toHaveAttribute('data-level', 'warning');
    rerender(<StorageUsageBar usage={{ used_bytes: 12 * GiB, quota_bytes: 10 * GiB, file_count: 1 }} />);
    expect(screen.getByRole('meter')).toHaveAttribute('aria-valuenow', '100');
    expect(screen.getByRole('meter').parentElement).toHaveAttribute('data-level', 'critical');
    expect(screen.getByText('Storage: 12 GB of 10 GB used')).toBeInTheDocument();
  });
});

describe('StorageUsageLabel', () => {
  beforeEach(() => localStorage.setItem(STORAGE_KEYS.token, TOKEN));

  it('reads the usage of the caller’s organisation from the server', async () => {
    const fetch = vi.fn(() =>
      Promise.resolve(
        new Response(
          JSON.stringify({
            success: true,
            data: { used_bytes: 512 * 1024, quota_bytes: GiB, file_count: 2 },
          }),
        ),
      ),
    );
    vi.stubGlobal('fetch', fetch);
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    client.setQueryData(profileQueryKey(TOKEN), user);
    const wrapper = ({ children }: { children: ReactNode }) => (
      <QueryClientProvider client={client}>
        <AuthProvider>{children}</AuthProvider>
      </QueryClientProvider>
    );
    render(<StorageUsageLabel />, { wrapper });
    expect(await screen.findByText('Storage: 512 KB of 1 GB used')).toBeInTheDocument();
    expect(String((fetch.mock.calls[0] as unknown[])[0])).toContain('/api/customer/files/usage');
  });
});
