import { useState } from 'react';
import type { UseMutationResult } from '@tanstack/react-query';
import { adminMessages } from '@outpost/contract/messages';
import { useToast } from '../components/ui/toast';
import { errorMessage } from './api-client';

/**
 * The delete flow of the admin lists (docs/product/administration.md#calls): bulk delete with nothing selected says
 * 'No Selection'; the rows to delete wait for a confirmation; the result is a toast, 'Delete
 * Failed' / 'Bulk Delete Failed' with the server's text preferred.
 */
export function useDeleteFlow<Row extends { id: number }, Result>(options: {
  remove: UseMutationResult<Result, Error, number[]>;
  /** 'sites', 'users', 'agents': in the No Selection hint */
  plural: string;
  /** the success toast for what was deleted */
  success: (result: Result, rows: Row[]) => { title: string; message: string };
  /** after a success, e.g. clear the selection */
  onDeleted?: () => void;
}) {
  const { remove, plural, success, onDeleted } = options;
  const toast = useToast();
  const [toDelete, setToDelete] = useState<Row[] | null>(null);

  const askBulk = (selected: Row[]) => {
    if (selected.length === 0) {
      toast.show({
        type: 'warning',
        title: adminMessages.noSelection,
        message: `Select the ${plural} to delete first.`,
      });
      return;
    }
    setToDelete(selected);
  };

  const confirm = () => {
    if (!toDelete) {
      return;
    }
    const rows = toDelete;
    const isBulk = rows.length > 1;
    remove.mutate(
      rows.map((r) => r.id),
      {
        onSuccess: (result) => {
          toast.show({ type: 'success', ...success(result, rows) });
          onDeleted?.();
          setToDelete(null);
        },
        onError: (err) => {
          toast.show({
            type: 'error',
            title: isBulk ? adminMessages.bulkDeleteFailed : adminMessages.deleteFailed,
            message: errorMessage(err, 'Please try again.'),
          });
          setToDelete(null);
        },
      },
    );
  };

  return {
    /** the rows waiting for confirmation, or null */
    toDelete,
    askOne: (row: Row) => setToDelete([row]),
    askBulk,
    confirm,
    cancel: () => setToDelete(null),
    isBusy: remove.isPending,
  };
}
