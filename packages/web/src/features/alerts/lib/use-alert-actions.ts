import { useState } from 'react';
import type { Alert } from '@outpost/contract/alerts';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useAlertAction, useBulkAcknowledge } from '../../../lib/api/alerts';

// The Alerts page's actions (docs/product/monitoring.md#the-alerts-page): the alert in the detail
// dialog with Acknowledge and Resolve, and the selection's bulk Acknowledge, each with a note.

export function useAlertActions(list: { selected: ReadonlySet<number>; clearSelection: () => void }) {
  const action = useAlertAction();
  const bulk = useBulkAcknowledge();
  const toast = useToast();
  const [viewing, setViewing] = useState<Alert | null>(null);
  const [detailError, setDetailError] = useState<string | null>(null);
  const [isBulkOpen, setIsBulkOpen] = useState(false);
  const [bulkError, setBulkError] = useState<string | null>(null);

  async function act(alert: Alert, kind: 'acknowledge' | 'resolve', note: string) {
    setDetailError(null);
    try {
      const updated = await action.mutateAsync({ id: alert.id, action: kind, note });
      toast.show({
        type: 'success',
        title: kind === 'acknowledge' ? 'Alert acknowledged' : 'Alert resolved',
        message: updated.title,
      });
      // a resolved alert is done with; an acknowledged one stays open to resolve
      setViewing(kind === 'resolve' ? null : updated);
    } catch (err) {
      setDetailError(errorMessage(err, 'Could not update the alert'));
    }
  }

  async function acknowledgeSelected(note: string) {
    setBulkError(null);
    try {
      const r = await bulk.mutateAsync({ ids: [...list.selected], note });
      toast.show({ type: 'success', title: `${r.updated} alert${r.updated === 1 ? '' : 's'} acknowledged` });
      setIsBulkOpen(false);
      list.clearSelection();
    } catch (err) {
      setBulkError(errorMessage(err, 'Could not acknowledge the alerts'));
    }
  }

  return {
    viewing,
    setViewing,
    action,
    act,
    detailError,
    setDetailError,
    bulk,
    isBulkOpen,
    setIsBulkOpen,
    bulkError,
    setBulkError,
    acknowledgeSelected,
  };
}
