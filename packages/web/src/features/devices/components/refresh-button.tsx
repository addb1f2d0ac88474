import { RefreshCw } from 'lucide-react';
import type { InventoryKind } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useRefreshInventory } from '../api/refresh-inventory';

/**
 * docs/product/devices.md#refresh — ask the agent to report `kind` again and reload the data. The server
 * answers once the agent has reported (or after its 15 s wait), so the button stays busy until
 * then: the indicator reflects the request, and a second click cannot send a second one.
 */
export function RefreshInventoryButton({
  idOrGuid,
  kind,
  onReload,
  isDisabled,
}: {
  idOrGuid: string;
  kind: InventoryKind;
  onReload: () => void;
  isDisabled?: boolean;
}) {
  const toast = useToast();
  const refresh = useRefreshInventory();

  const start = () => {
    if (refresh.isPending) {
      return;
    }
    refresh.mutate(
      { idOrGuid, kind },
      {
        onSuccess: onReload,
        onError: (err) =>
          toast.show({
            type: 'error',
            title: deviceMessages.refreshFailed(kind),
            message: errorMessage(err, deviceMessages.refreshFailed(kind)),
          }),
      },
    );
  };

  const isRefreshing = refresh.isPending;
  return (
    <Button
      size="sm"
      variant="ghost"
      onClick={start}
      disabled={isDisabled}
      disabledReason={isDisabled ? 'The device is offline' : undefined}
      aria-busy={isRefreshing}
      title={isDisabled ? undefined : `Ask the device to report its ${kind} again`}
      icon={<RefreshCw className={isRefreshing ? 'size-3.5 animate-spin' : 'size-3.5'} />}
    >
      {isRefreshing ? 'Refreshing...' : `Refresh ${kind}`}
    </Button>
  );
}
