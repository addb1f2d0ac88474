// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { useState } from 'react';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { DataTable } from './data-table';
import type { Column } from './data-table';

type Row = { id: number; name: string; isOnline: boolean };

const rows: Row[] = [
  { id: 1, name: 'alpha', isOnline: true },
  { id: 2, name: 'bravo', isOnline: false },
  { id: 3, name: 'charlie', isOnline: true },
];

const columns: Column<Row>[] = [
  { id: 'name', header: 'Name', sticky: true, cell: (r) => r.name },
  { id: 'state', header: 'State', label: 'State', cell: (r) => (r.isOnline ? 'Online' : 'Offline') },
  { id: 'secret', header: 'Secret', isHidden: true, cell: () => 'hidden' },
];

/** The table with a selection kept the way useListState keeps it. */
function Selectable() {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const state = {
    isSelected: (id: number) => selected.has(id),
    toggle: (id: number) =>
      setSelected((s) => {
        const next = new Set(s);
        if (next.has(id)) {
          next.delete(id);
        } else {
          next.add(id);
        }
        return next;
      }),
    toggleAll: (ids: readonly number[]) =>
      setSelected((s) => (ids.length > 0 && ids.every((id) => s.has(id)) ? new Set() : new Set(ids))),
  };
  return (
    <DataTable
      cards
      rows={rows}
      columns={columns}
      selection={{
        allLabel: 'Select all online',
        rowLabel: (r) => `Select ${r.name}`,
        state,
        canSelect: (r) => r.isOnline,
        isAllDisabledWhenNone: true,
      }}
      rowAttributes={(r) => ({ 'data-row-name': r.name })}
    />
  );
}

describe('DataTable', () => {
  afterEach(cleanup);

  it('draws the visible columns, captions cells for phone cards and carries row attributes', () => {
    render(<Selectable />);
    const table = screen.getByRole('table');
    expect(table).toHaveAttribute('data-cards', 'true');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['', 'Name', 'State']);
    expect(screen.queryByText('hidden')).toBeNull();
    const bravo = screen.getByText('bravo').closest('tr')!;
    expect(bravo).toHaveAttribute('data-row-name', 'bravo');
    expect(within(bravo).getByText('Offline')).toHaveAttribute('data-label', 'State');
    expect(within(bravo).getByText('bravo').closest('td')).toHaveClass('sticky');
  });

  it('select-all picks only the rows that can be selected; a row that cannot has a disabled box', async () => {
    const user = userEvent.setup();
    render(<Selectable />);
    expect(screen.getByRole('checkbox', { name: 'Select bravo' })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Select all online' }));
    expect(screen.getByRole('checkbox', { name: 'Select all online' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select alpha' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select charlie' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select bravo' })).not.toBeChecked();
    expect(screen.getByText('alpha').closest('tr')).toHaveAttribute('data-selected', 'true');

    await user.click(screen.getByRole('checkbox', { name: 'Select alpha' }));
    expect(screen.getByRole('checkbox', { name: 'Select all online' })).not.toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Select all online' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select all online' }));
    expect(screen.getByRole('checkbox', { name: 'Select charlie' })).not.toBeChecked();
  });

  it('has no select boxes without a selection', () => {
    render(<DataTable rows={rows} columns={columns} />);
    expect(screen.queryAllByRole('checkbox')).toHaveLength(0);
    expect(screen.getByRole('table')).not.toHaveAttribute('data-cards');
  });
});
