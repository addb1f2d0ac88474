import { memo, useMemo } from 'react';
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
  const shown = useMemo(() => columns.filter((c) => !c.isHidden), [columns]);
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
          return (
            <DataRow
              key={row.id}
              row={row}
              columns={shown}
              attributes={rowAttributes?.(row)}
              select={
                selection && {
                  isChecked: Boolean(selection.state.isSelected(row.id)) && canSelect,
                  canSelect,
                  label: selection.rowLabel(row),
                  title: selection.rowTitle?.(row),
                  toggle: selection.state.toggle,
                }
              }
            />
          );
        })}
      </TBody>
    </Table>
  );
}

type RowSelect = {
  isChecked: boolean;
  canSelect: boolean;
  label: string;
  title: string | undefined;
  toggle: (id: number) => void;
};
type DataRowProps<T extends { id: number }> = {
  row: T;
  columns: readonly Column<T>[];
  /** a function of the row (rowAttributes) */
  attributes: DataRowAttributes | undefined;
  select: RowSelect | undefined;
};

/**
 * One row, drawn again only when its data, its box or the columns change: a live update changes
 * a few rows of a page, and a page whose columns keep their identity (useMemo) redraws only those.
 */
const DataRow = memo(
  function DataRow<T extends { id: number }>({ row, columns, attributes, select }: DataRowProps<T>) {
    return (
      <Tr isSelected={select?.isChecked ?? false} {...attributes}>
        {select && (
          <Td>
            <Checkbox
              aria-label={select.label}
              checked={select.isChecked}
              disabled={!select.canSelect || undefined}
              title={select.title}
              onChange={() => select.toggle(row.id)}
            />
          </Td>
        )}
        {columns.map((c) => (
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
  },
  (a, b) =>
    a.row === b.row &&
    a.columns === b.columns &&
    a.select?.isChecked === b.select?.isChecked &&
    a.select?.canSelect === b.select?.canSelect &&
    a.select?.label === b.select?.label &&
    a.select?.title === b.select?.title &&
    a.select?.toggle === b.select?.toggle,
) as <T extends { id: number }>(props: DataRowProps<T>) => ReactNode;
