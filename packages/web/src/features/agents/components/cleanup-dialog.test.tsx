// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CleanupPlan, CleanupResult, DuplicateSetMember } from '@outpost/contract/device-cleanup';
import { cleanupMessages, deviceMessages } from '@outpost/contract/messages';
import { ToastProvider } from '../../../components/ui/toast';
import { CleanupDialog } from './cleanup-dialog';

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin' }) }));

const member = (
  id: number,
  outcome: DuplicateSetMember['outcome'],
  reason: DuplicateSetMember['reason'],
  extra: Partial<DuplicateSetMember> = {},
): DuplicateSetMember => ({
  id,
  device_guid: `guid-${id}`,
  hostname: 'FINANCE-PC-01',
  serial_number: 'SN-1',
  status: 'offline',
  last_seen: '2026-11-20T09:00:00.000Z',
  created_at: '2026-01-10T09:00:00.000Z',
  outcome,
  reason,
  ...extra,
});

// One set to clean (3 kept, 4 removed) and one in review (10 kept, 11 online: the impostor case).
const plan: CleanupPlan = {
  devices: [
    { id: 2, device_guid: 'guid-2', hostname: 'OLD-LAPTOP', reason: 'stale', kept_device_id: null },
    { id: 4, device_guid: 'guid-4', hostname: 'PC-4', reason: 'duplicate', kept_device_id: 3 },
  ],
  duplicate_sets: [
    {
      kept_device_id: 3,
      needs_review: false,
      members: [
        member(3, 'keep', 'first_proven', { hostname: 'PC-4' }),
        member(4, 'remove', 'duplicate', { hostname: 'PC-4' }),
      ],
    },
    {
      kept_device_id: 10,
      needs_review: true,
      members: [member(10, 'keep', 'first_proven'), member(11, 'review', 'online', { status: 'online' })],
    },
  ],
};

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200 });

function stubServer() {
  const result: CleanupResult = {
    removed: 2,
    devices: plan.devices,
    review_sets: plan.duplicate_sets.filter((s) => s.needs_review),
  };
  const fetch = vi.fn((url: string, _init?: RequestInit) =>
    Promise.resolve(ok(url.endsWith('/cleanup/preview') ? plan : url.endsWith('/cleanup') ? result : [])),
  );
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

const posted = (fetch: ReturnType<typeof stubServer>, path: string) =>
  fetch.mock.calls
    .filter(([url]) => url === `/api/customer/devices/${path}`)
    .map(([, init]) => JSON.parse(init?.body as string) as unknown);

describe('Cleanup dialog: what will be removed, and which record of a duplicate set is kept and why', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  it('previews before anything is removed, then removes exactly the agents it showed', async () => {
    const fetch = stubServer();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <CleanupDialog isOpen onClose={() => undefined} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Remove duplicate registrations' }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));

    // nothing was removed yet: only the preview was asked for
    await screen.findByText('Duplicate registrations (2)');
    expect(posted(fetch, 'cleanup/preview')).toEqual([{ offline_days: 30, remove_duplicates: true }]);
    expect(posted(fetch, 'cleanup')).toEqual([]);

    const kept = screen.getByTestId('cleanup-member-3');
    expect(within(kept).getByText('Keep')).toBeInTheDocument();
    expect(within(kept).getByText(cleanupMessages.reason.first_proven)).toBeInTheDocument();
    const removed = screen.getByTestId('cleanup-member-4');
    expect(within(removed).getByText('Remove')).toBeInTheDocument();
    expect(within(removed).getByText(cleanupMessages.reason.duplicate)).toBeInTheDocument();
    const online = screen.getByTestId('cleanup-member-11');
    expect(within(online).getByText('Review')).toBeInTheDocument();
    expect(within(online).getByText(cleanupMessages.reason.online)).toBeInTheDocument();
    expect(screen.getAllByText(cleanupMessages.needsReview(1))).toHaveLength(1);
    expect(
      within(screen.getByRole('region', { name: 'Offline too long' })).getByText('OLD-LAPTOP'),
    ).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Remove 2 agents' }));
    await screen.findByText('Removed 2 agents.');
    expect(posted(fetch, 'cleanup')).toEqual([
      { offline_days: 30, remove_duplicates: true, device_ids: [2, 4] },
    ]);
    // the result still says a set is left for review
    expect(screen.getByText(cleanupMessages.needsReview(1))).toBeInTheDocument();
  });

  it('clears "No Options Selected" as soon as an option is chosen', async () => {
    stubServer();
    render(
      <QueryClientProvider client={new QueryClient()}>
        <ToastProvider>
          <CleanupDialog isOpen onClose={() => undefined} />
        </ToastProvider>
      </QueryClientProvider>,
    );
    const user = userEvent.setup();
    await user.click(screen.getByRole('checkbox', { name: 'Remove agents offline for longer than' }));
    await user.click(screen.getByRole('button', { name: 'Preview' }));
    expect(screen.getByRole('alert')).toHaveTextContent(deviceMessages.noOptionsSelected);
    await user.click(screen.getByRole('checkbox', { name: 'Remove duplicate registrations' }));
    expect(screen.queryByText(deviceMessages.noOptionsSelected)).not.toBeInTheDocument();
  });
});
