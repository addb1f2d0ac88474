// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AUDIT_ACTION_OPTIONS } from '@outpost/contract/audit';
import { emptyAuditFilters } from '../lib/audit-format';
import { AuditFilterPanel } from './audit-filter-panel';

describe('audit filter panel (docs/product/activity.md#audit-log)', () => {
  afterEach(cleanup);

  it('applies on Apply Filters and clears on Clear Filters', async () => {
    const onApply = vi.fn();
    const onClear = vi.fn();
    const events = userEvent.setup();
    render(
      <AuditFilterPanel
        value={emptyAuditFilters}
        onChange={vi.fn()}
        users={[]}
        onApply={onApply}
        onClear={onClear}
      />,
    );
    expect(screen.getByPlaceholderText('Search logs...')).toBeVisible();
    await events.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(onApply).toHaveBeenCalledTimes(1);
    await events.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(onClear).toHaveBeenCalledTimes(1);
  });

  it('does not apply dates the wrong way round, and says why', async () => {
    const onApply = vi.fn();
    const events = userEvent.setup();
    render(
      <AuditFilterPanel
        value={{ ...emptyAuditFilters, startDate: '2026-03-02', endDate: '2026-03-01' }}
        onChange={vi.fn()}
        users={[]}
        onApply={onApply}
        onClear={vi.fn()}
      />,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('The start date must not be after the end date');
    await events.click(screen.getByRole('button', { name: 'Apply Filters' }));
    expect(onApply).not.toHaveBeenCalled();
  });

  it("offers every action the log holds beside the spec's nine", () => {
    render(
      <AuditFilterPanel
        value={emptyAuditFilters}
        onChange={vi.fn()}
        users={[]}
        logActions={['Login', 'Create Deployment', 'Create User', 'Agent Cleanup']}
        onApply={vi.fn()}
        onClear={vi.fn()}
      />,
    );
    const select = screen.getByRole('combobox', { name: 'Action' });
    const labels = within(select)
      .getAllByRole('option')
      .map((o) => o.textContent);
    expect(labels).toEqual([
      'All Actions',
      ...AUDIT_ACTION_OPTIONS,
      'Agent Cleanup',
      'Create Deployment',
      'Login',
    ]);
    expect(within(select).getByRole('group', { name: 'More actions in the log' })).toBeInTheDocument();
  });
});
