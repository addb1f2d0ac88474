import type { ReactNode } from 'react';
import { Checkbox } from './form';
import { TBody, THead, Table, Td, Th, Tr } from './table';

// The column-driven table every list screen draws (docs/decisions/2026-11-26-data-table.md): the
// page says what its columns are and how a row is selected; the kit draws the header, the rows,
// the select boxes and the phone card captions the same way on every list.

export type Column<T> = {
  /** React key of the column */
  id: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  /** the column naming the row: stays in view while the table scrolls, leads the phone card */
  sticky?: boolean;
  headerClassName?: string;
  className?: string;
  /** the cell's caption on a phone card (`<Table cards>`) */
  label?: string;
  /** on a phone card, the cell takes the card's width without a caption */
  isFull?: boolean;
  /** the cell's tooltip */
  title?: (row: T) => string | undefined;
  /** left out of the table (columns only some roles see) */
  isHidden?: boolean;
};

export type SelectionState = {
  isSelected: (id: number) => boolean;
  toggle: (id: number) => void;
  toggleAll: (ids: readonly number[]) => void;
};

export type RowSelection<T> = {
  /** names the select-all box */
  allLabel: string;
  /** names a row's box */
  rowLabel: (row: T) => string;
  /** the selected ids (useListState keeps them) */
  state: SelectionState;
  /** rows that cannot be selected show a disabled box; all rows can by default */
  canSelect?: (row: T) => boolean;
  /** a disabled row box's tooltip */
  rowTitle?: (row: T) => string | undefined;
  /** disable the select-all box while no row on the page can be selected */
  isAllDisabledWhenNone?: boolean;
};

type DataRowAttributes = Record<`data-${string}`, string | number>;

export type DataTableProps<T extends { id: number }> = {
  rows: readonly T[];
  columns: readonly Column<T>[];
  selection?: RowSelection<T>;
  /** phone card rows (index.css) */
  cards?: boolean;
  /** data attributes a row carries (tests and live updates find rows by them) */
  rowAttributes?: (row: T) => DataRowAttributes;
};

function SelectAllBox<T extends { id: number }>({
  rows,
  selection,
}: {
  rows: readonly T[];
  selection: RowSelection<T>;
}) {
  const selectable = rows.filter((r) => selection.canSelect?.(r) ?? true);
  const isAllSelected = selectable.length > 0 && selectable.every((r) => selection.state.isSelected(r.id));
  return (
    <Checkbox
      aria-label={selection.allLabel}
      checked={isAllSelected}
      disabled={selection.isAllDisabledWhenNone ? selectable.length === 0 : undefined}
      onChange={() => selection.state.toggleAll(selectable.map((r) => r.id))}
    />
  );
}

export function DataTable<T extends { id: number }>({
  rows,
  columns,
  selection,
  cards,
  rowAttributes,
}: DataTableProps<T>) {
  const shown = columns.filter((c) => !c.isHidden);
  return (
    <Table cards={cards}>
      <THead>
        <tr>
          {selection && (
            <Th className="w-10">
              <SelectAllBox rows={rows} selection={selection} />
            </Th>
          )}
          {shown.map((c) => (
            <Th key={c.id} sticky={c.sticky} className={c.headerClassName}>
              {c.header}
            </Th>
          ))}
        </tr>
      </THead>
      <TBody>
        {rows.map((row) => {
          const canSelect = selection?.canSelect?.(row) ?? true;
          const isChecked = Boolean(selection?.state.isSelected(row.id)) && canSelect;
          return (
            <Tr key={row.id} isSelected={isChecked} {...rowAttributes?.(row)}>
              {selection && (
                <Td>
                  <Checkbox
                    aria-label={selection.rowLabel(row)}
                    checked={isChecked}
                    disabled={!canSelect || undefined}
                    title={selection.rowTitle?.(row)}
                    onChange={() => selection.state.toggle(row.id)}
                  />
                </Td>
              )}
              {shown.map((c) => (
                <Td
                  key={c.id}
                  sticky={c.sticky}
                  className={c.className}
                  title={c.title?.(row)}
                  data-label={c.label}
                  data-full={c.isFull || undefined}
                >
                  {c.cell(row)}
                </Td>
              ))}
            </Tr>
          );
        })}
      </TBody>
    </Table>
  );
}
