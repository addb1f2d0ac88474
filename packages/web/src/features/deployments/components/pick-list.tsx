import { useId, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { SearchInput } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';

// docs/product/deployments.md#deploy-dialog — a pick list with Available and Selected columns, search, and
// Add, Add All, Remove, Clear All; the lists scroll at about 48 height units
// (32 on windows under 1000 px tall).

export type PickItem = {
  id: number;
  label: string;
  detail?: string;
  /** shown at the end of the row (e.g. the device's status) */
  aside?: ReactNode;
};

export type PickListProps = {
  /** 'Packages' or 'Devices': the group's name */
  title: string;
  /** singular and plural, for the counts and the empty texts */
  noun: readonly [string, string];
  /** every item known: what may be picked, and what is selected */
  items: readonly PickItem[];
  selectedIds: readonly number[];
  onChange: (ids: number[]) => void;
  searchPlaceholder?: string;
  isLoading?: boolean;
  isDisabled?: boolean;
  /** shown under the title (e.g. 'Only online devices are offered') */
  hint?: ReactNode;
  /** the rule this group breaks, shown under its title */
  error?: string;
  /** beside the title (the deploy dialog's "Deploy to" switch) */
  headerExtra?: ReactNode;
};

// The lists are shorter on short windows so the job fields below stay in sight.
const LIST_HEIGHT = 'h-32 [@media(min-height:1000px)]:h-48';

/** Matches the search against the label and the detail, case-insensitively. */
export function matchesSearch(item: PickItem, search: string): boolean {
  const term = search.trim().toLowerCase();
  return (
    term === '' ||
    item.label.toLowerCase().includes(term) ||
    Boolean(item.detail?.toLowerCase().includes(term))
  );
}

export function PickList({
  title,
  noun,
  items,
  selectedIds,
  onChange,
  searchPlaceholder,
  isLoading,
  isDisabled,
  hint,
  error,
  headerExtra,
}: PickListProps) {
  const titleId = useId();
  const [search, setSearch] = useState('');
  const [markedAvailable, setMarkedAvailable] = useState<ReadonlySet<number>>(new Set());
  const [markedSelected, setMarkedSelected] = useState<ReadonlySet<number>>(new Set());

  const byId = useMemo(() => new Map(items.map((i) => [i.id, i])), [items]);
  const selectedSet = useMemo(() => new Set(selectedIds), [selectedIds]);
  const available = items.filter((i) => !selectedSet.has(i.id) && matchesSearch(i, search));
  const selected = selectedIds.map((id) => byId.get(id) ?? { id, label: `${noun[0]} ${id}` });

  const add = (ids: readonly number[]) => {
    onChange([...selectedIds, ...ids.filter((id) => !selectedSet.has(id))]);
    setMarkedAvailable(new Set());
  };
  const remove = (ids: ReadonlySet<number>) => {
    onChange(selectedIds.filter((id) => !ids.has(id)));
    setMarkedSelected(new Set());
  };
  const markedToAdd = available.filter((i) => markedAvailable.has(i.id)).map((i) => i.id);
  const markedToRemove = new Set(selectedIds.filter((id) => markedSelected.has(id)));

  return (
    <section role="group" aria-labelledby={titleId} className="space-y-2.5">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <h3 id={titleId} className="text-sm font-semibold text-slate-900 dark:text-white">
              {title}
            </h3>
            {headerExtra}
          </div>
          {hint && <p className="text-xs text-slate-500 dark:text-slate-400">{hint}</p>}
          {error && (
            <p className="text-xs font-medium text-red-600 dark:text-red-400" data-testid="pick-list-error">
              {error}
            </p>
          )}
        </div>
        <SearchInput
          value={search}
          onChange={setSearch}
          placeholder={searchPlaceholder}
          label={`Search ${noun[1]}`}
        />
      </div>
      <div className="grid grid-cols-1 gap-3 md:grid-cols-[minmax(0,1fr)_auto_minmax(0,1fr)] md:items-stretch">
        <Column
          label={`Available ${noun[1]}`}
          heading={`Available (${available.length})`}
          items={available}
          marked={markedAvailable}
          onMark={setMarkedAvailable}
          onActivate={(id) => add([id])}
          isLoading={isLoading}
          isDisabled={isDisabled}
          empty={search.trim() ? `No ${noun[1]} match your search` : `No ${noun[1]} available`}
        />
        <div className="flex flex-row flex-wrap justify-center gap-1.5 md:flex-col md:justify-center">
          <Button
            size="sm"
            icon={<ChevronRight className="size-3.5" />}
            disabled={isDisabled || markedToAdd.length === 0}
            onClick={() => add(markedToAdd)}
          >
            Add
          </Button>
          <Button
            size="sm"
            icon={<ChevronsRight className="size-3.5" />}
            disabled={isDisabled || available.length === 0}
            onClick={() => add(available.map((i) => i.id))}
          >
            Add All
          </Button>
          <Button
            size="sm"
            icon={<ChevronLeft className="size-3.5" />}
            disabled={isDisabled || markedToRemove.size === 0}
            onClick={() => remove(markedToRemove)}
          >
            Remove
          </Button>
          <Button
            size="sm"
            icon={<ChevronsLeft className="size-3.5" />}
            disabled={isDisabled || selectedIds.length === 0}
            onClick={() => remove(new Set(selectedIds))}
          >
            Clear All
          </Button>
        </div>
        <Column
          label={`Selected ${noun[1]}`}
          heading={`Selected (${selected.length})`}
          items={selected}
          marked={markedSelected}
          onMark={setMarkedSelected}
          onActivate={(id) => remove(new Set([id]))}
          isDisabled={isDisabled}
          isSelectedColumn
          empty={`No ${noun[1]} selected`}
        />
      </div>
    </section>
  );
}

function Column({
  label,
  heading,
  items,
  marked,
  onMark,
  onActivate,
  isLoading,
  isDisabled,
  isSelectedColumn,
  empty,
}: {
  label: string;
  heading: string;
  items: readonly PickItem[];
  marked: ReadonlySet<number>;
  onMark: (next: ReadonlySet<number>) => void;
  onActivate: (id: number) => void;
  isLoading?: boolean;
  isDisabled?: boolean;
  isSelectedColumn?: boolean;
  empty: string;
}) {
  const toggle = (id: number) => {
    const next = new Set(marked);
    if (next.has(id)) {
      next.delete(id);
    } else {
      next.add(id);
    }
    onMark(next);
  };
  return (
    <div
      className={cn(
        'flex min-w-0 flex-col overflow-hidden rounded-lg ring-1 ring-slate-200 dark:ring-slate-700/80',
        isSelectedColumn ? 'bg-indigo-50/40 dark:bg-indigo-500/5' : 'bg-white dark:bg-slate-900',
      )}
    >
      <div className="flex items-center justify-between border-b border-slate-200 bg-slate-50/80 px-3 py-1.5 text-xs font-semibold tracking-wide text-slate-500 uppercase dark:border-slate-700/80 dark:bg-slate-800/50 dark:text-slate-400">
        {heading}
      </div>
      {isLoading ? (
        <div className={cn('flex items-center justify-center', LIST_HEIGHT)}>
          <Spinner
            className="size-5 text-indigo-600 dark:text-indigo-400"
            label={`Loading ${label.toLowerCase()}`}
          />
        </div>
      ) : items.length === 0 ? (
        <p
          className={cn(
            'flex items-center justify-center px-4 text-center text-sm text-slate-500 dark:text-slate-400',
            LIST_HEIGHT,
          )}
        >
          {empty}
        </p>
      ) : (
        <ul
          aria-label={label}
          className={cn('divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800', LIST_HEIGHT)}
        >
          {items.map((item) => (
            <li key={item.id}>
              <label
                onDoubleClick={() => !isDisabled && onActivate(item.id)}
                className={cn(
                  'flex cursor-pointer items-center gap-2.5 px-3 py-2 text-sm select-none hover:bg-slate-50 dark:hover:bg-slate-800/60',
                  marked.has(item.id) &&
                    'bg-indigo-50 hover:bg-indigo-50 dark:bg-indigo-500/15 dark:hover:bg-indigo-500/15',
                )}
              >
                <input
                  type="checkbox"
                  className="size-4 shrink-0 rounded border-slate-300 accent-indigo-600"
                  checked={marked.has(item.id)}
                  disabled={isDisabled}
                  onChange={() => toggle(item.id)}
                />
                <span className="min-w-0 flex-1">
                  <span className="block truncate font-medium text-slate-800 dark:text-slate-100">
                    {item.label}
                  </span>
                  {item.detail && (
                    <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                      {item.detail}
                    </span>
                  )}
                </span>
                {item.aside}
              </label>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
