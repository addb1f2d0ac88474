import type { ReactNode } from 'react';
import { ConfirmDialog } from './dialog';

/** What the dialog needs of a delete flow (useDeleteFlow fits). */
export type DeleteRowsFlow<Row> = {
  toDelete: Row[] | null;
  isBusy: boolean;
  confirm: () => void;
  cancel: () => void;
};

/** Asks before deleting one row or several of an admin list: 'Delete user?', 'Delete 3 users?'. */
export function DeleteRowsDialog<Row>({
  flow,
  noun,
  message,
}: {
  flow: DeleteRowsFlow<Row>;
  /** singular and plural, e.g. ['user', 'users'] */
  noun: readonly [string, string];
  /** what deleting these rows means */
  message: (rows: Row[]) => ReactNode;
}) {
  const rows = flow.toDelete;
  return (
    <ConfirmDialog
      isOpen={rows !== null}
      title={rows && rows.length > 1 ? `Delete ${rows.length} ${noun[1]}?` : `Delete ${noun[0]}?`}
      message={rows && message(rows)}
      confirmLabel="Delete"
      isBusy={flow.isBusy}
      onConfirm={flow.confirm}
      onCancel={flow.cancel}
    />
  );
}
