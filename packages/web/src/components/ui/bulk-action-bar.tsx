import type { ReactNode } from 'react';
import { Trash2 } from 'lucide-react';
import { Button } from './button';

/** Shown above a list while rows are selected: how many, Clear selection, and the bulk actions. */
export function BulkActionBar({
  count,
  noun,
  onClear,
  children,
}: {
  count: number;
  /** singular and plural, e.g. ['device', 'devices'] */
  noun: readonly [string, string];
  onClear: () => void;
  children: ReactNode;
}) {
  if (count === 0) {
    return null;
  }
  return (
    <div
      role="region"
      aria-label="Bulk actions"
      data-testid="bulk-bar"
      className="flex flex-wrap items-center gap-2 border-b border-indigo-100 bg-indigo-50/70 px-4 py-2.5 dark:border-indigo-500/20 dark:bg-indigo-500/10"
    >
      <span className="mr-2 text-sm font-medium text-indigo-900 dark:text-indigo-200">
        {count} {count === 1 ? noun[0] : noun[1]} selected
      </span>
      <Button size="sm" variant="ghost" onClick={onClear}>
        Clear selection
      </Button>
      <div className="ml-auto flex flex-wrap gap-2">{children}</div>
    </div>
  );
}

/** The bar's "Delete Selected (n)" (users, sites, agents): shown only with a selection. */
export function DeleteSelectedButton({ count, onClick }: { count: number; onClick: () => void }) {
  return (
    <Button variant="danger" size="sm" icon={<Trash2 className="size-3.5" />} onClick={onClick}>
      Delete Selected ({count})
    </Button>
  );
}
