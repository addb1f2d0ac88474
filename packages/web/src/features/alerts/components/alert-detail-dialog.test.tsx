// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Alert } from '@outpost/contract/alerts';
import { AlertDetailDialog } from './alert-detail-dialog';

const open: Alert = {
  id: 5,
  condition: 'agent_crash',
  title: 'The agent restarted after a crash',
  detail: 'Segmentation fault',
  severity: 'critical',
  state: 'open',
  device: { guid: 'guid-1', hostname: 'WS-001' },
  site_id: 2,
  check_id: null,
  job_id: null,
  first_seen_at: '2026-11-27T08:00:00Z',
  last_seen_at: '2026-11-27T08:05:00Z',
  occurrences: 2,
  acknowledged_at: null,
  acknowledged_by: null,
  acknowledge_note: null,
  resolved_at: null,
  resolved_by: null,
  resolve_note: null,
  silenced: false,
};

function renderDetail(alert: Alert) {
  const onAction = vi.fn();
  render(
    <MemoryRouter>
      <AlertDetailDialog
        alert={alert}
        siteName={() => 'Headquarters'}
        busy={null}
        error={null}
        onAction={onAction}
        onClose={() => undefined}
      />
    </MemoryRouter>,
  );
  return { onAction, user: userEvent.setup() };
}

describe('the alert detail (docs/product/monitoring.md#the-alerts-page)', () => {
  afterEach(cleanup);

  it('acknowledges an open alert with the note typed', async () => {
    const { onAction, user } = renderDetail(open);
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Segmentation fault')).toBeInTheDocument();
    expect(within(dialog).getByText('Headquarters')).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText('Note'), 'On it');
    await user.click(within(dialog).getByRole('button', { name: 'Acknowledge' }));
    expect(onAction).toHaveBeenCalledWith('acknowledge', 'On it');
  });

  it('shows who acknowledged it, and that it resolved by itself, without actions once resolved', () => {
    renderDetail({
      ...open,
      state: 'resolved',
      acknowledged_at: '2026-11-27T08:06:00Z',
      acknowledged_by: 'Ann',
      acknowledge_note: 'Looking',
      resolved_at: '2026-11-27T08:10:00Z',
      silenced: true,
    });
    const dialog = screen.getByRole('dialog');
    expect(within(dialog).getByText('Acknowledged by Ann')).toBeInTheDocument();
    expect(within(dialog).getByText('Looking')).toBeInTheDocument();
    expect(within(dialog).getByText('Resolved by itself')).toBeInTheDocument();
    expect(within(dialog).getByText(/in maintenance: no one was told/)).toBeInTheDocument();
    expect(within(dialog).queryByRole('button', { name: 'Resolve' })).not.toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Note')).not.toBeInTheDocument();
  });
});
