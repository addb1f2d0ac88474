// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditLogEntry } from '@outpost/contract/audit';
import { AuditTable } from './audit-table';

const entry = (over: Partial<AuditLogEntry>): AuditLogEntry => ({
  id: 1,
  action: 'Update Site',
  user_id: 4,
  user_name: 'Alex Morgan',
  user_email: 'admin@acme.example',
  user_role: 'tenant_admin',
  resource_type: 'site',
  resource_id: '12',
  created_at: new Date(Date.now() - 90_000).toISOString(),
  ip_address: '10.0.0.8',
  details: 'Updated site London Office',
  old_values: '{"city":"London"}',
  new_values: '{"city":"Manchester"}',
  user_agent: 'Mozilla/5.0 Test',
  ...over,
});

describe('audit table cells (docs/product/activity.md#audit-log)', () => {
  afterEach(cleanup);

  it('shows user, resource and timestamp cells with their fallbacks', () => {
    render(
      <AuditTable
        entries={[
          entry({}),
          entry({
            id: 2,
            action: 'Device Restart',
            user_name: null,
            user_email: null,
            user_role: null,
            user_id: 9,
            resource_type: null,
            resource_id: null,
            ip_address: null,
            details: null,
            old_values: null,
            new_values: null,
          }),
        ]}
      />,
    );
    const [first, second] = screen.getAllByRole('row').slice(1);
    expect(first).toHaveTextContent('Alex Morgan');
    expect(first).toHaveTextContent('admin@acme.example');
    expect(first).toHaveTextContent('Admin');
    expect(first).toHaveTextContent('ID: 12');
    expect(first).toHaveTextContent('10.0.0.8');
    expect(first).toHaveTextContent('1m ago');
    expect(second).toHaveTextContent('Unknown User');
    expect(second).toHaveTextContent('ID: 9');
    expect(second).toHaveTextContent('N/A');
    expect(second).toHaveTextContent('No details');
    expect(within(second!).queryByRole('button')).toBeNull();
  });

  it('colours the action badge by its words', () => {
    render(
      <AuditTable
        entries={[
          entry({ id: 1, action: 'Create User' }),
          entry({ id: 2, action: 'Delete Site' }),
          entry({ id: 3, action: 'Update Device' }),
          entry({ id: 4, action: 'Login' }),
          entry({ id: 5, action: 'Switch Organization' }),
        ]}
      />,
    );
    const kinds = ['Create User', 'Delete Site', 'Update Device', 'Login', 'Switch Organization'].map((a) =>
      screen.getByText(a).getAttribute('data-action-kind'),
    );
    expect(kinds).toEqual(['create', 'delete', 'update', 'auth', 'other']);
    expect(screen.getByText('Create User').parentElement!.className).toMatch(/emerald/);
    expect(screen.getByText('Delete Site').parentElement!.className).toMatch(/red/);
    expect(screen.getByText('Update Device').parentElement!.className).toMatch(/sky/);
    expect(screen.getByText('Login').parentElement!.className).toMatch(/violet/);
    expect(screen.getByText('Switch Organization').parentElement!.className).toMatch(/slate/);
  });

  it('shows and hides the details of each row independently', async () => {
    const user = userEvent.setup();
    render(
      <AuditTable entries={[entry({ id: 1 }), entry({ id: 2, details: 'Second', user_agent: null })]} />,
    );
    const [show1, show2] = screen.getAllByRole('button', { name: 'Show Details' });
    await user.click(show1!);
    expect(screen.getByText('Old Values')).toBeVisible();
    expect(screen.getByText('New Values')).toBeVisible();
    // a readable field list, not raw JSON
    expect(document.querySelector('dl[aria-label="New Values"]')).not.toBeNull();
    expect(screen.getByText('Manchester')).toBeVisible();
    expect(screen.getByText('Mozilla/5.0 Test')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Hide Details' })).toHaveAttribute('aria-expanded', 'true');
    await user.click(show2!);
    expect(screen.getAllByText('Old Values')).toHaveLength(2);
    await user.click(screen.getAllByRole('button', { name: 'Hide Details' })[0]!);
    expect(screen.getAllByText('Old Values')).toHaveLength(1);
    expect(screen.getAllByRole('button', { name: 'Hide Details' })).toHaveLength(1);
  });

  it('shows Old and New Values as a field list, the changed fields marked', async () => {
    const user = userEvent.setup();
    render(
      <AuditTable
        entries={[
          entry({
            id: 1,
            old_values: '{"site_name":"London","ip_address":"10.0.0.1","is_active":true,"site_ids":[1,2]}',
            new_values:
              '{"site_name":"London Office","ip_address":"10.0.0.1","is_active":false,"site_ids":[]}',
          }),
        ]}
      />,
    );
    await user.click(screen.getByRole('button', { name: 'Show Details' }));
    const before = document.querySelector('dl[aria-label="Old Values"]')!;
    expect(document.body.textContent).not.toMatch(/[{}"]/);
    const after = document.querySelector('dl[aria-label="New Values"]')!;
    const pairs = (dl: Element) =>
      [...dl.querySelectorAll('dt')].map((dt) => `${dt.textContent}: ${dt.nextElementSibling!.textContent}`);
    expect(pairs(before)).toEqual([
      'Site name: London (changed)',
      'IP address: 10.0.0.1',
      'Is active: Yes (changed)',
      'Site IDs: 1, 2 (changed)',
    ]);
    expect(pairs(after)).toEqual([
      'Site name: London Office (changed)',
      'IP address: 10.0.0.1',
      'Is active: No (changed)',
      'Site IDs: (none) (changed)',
    ]);
  });

  it('marks nothing as changed when only New Values exist (a creation)', async () => {
    const user = userEvent.setup();
    render(
      <AuditTable entries={[entry({ id: 1, old_values: null, new_values: '{"site_name":"Leeds"}' })]} />,
    );
    await user.click(screen.getByRole('button', { name: 'Show Details' }));
    expect(document.querySelector('dl[aria-label="New Values"]')).toHaveTextContent('Site nameLeeds');
    expect(screen.queryByText(/changed/)).not.toBeInTheDocument();
  });

  it('gives the one-line details text a tooltip with the whole text', () => {
    const long = 'LON1-WS-020 enrolled with token opt_yvHMUi… into site London Office by the demo fleet';
    render(<AuditTable entries={[entry({ id: 1, details: long })]} />);
    expect(screen.getByText(long)).toHaveAttribute('title', long);
  });
});
