import { useEffect, useRef, useState } from 'react';
import { RefreshCw } from 'lucide-react';
import type { InventoryKind } from '@outpost/contract/devices';
import { REFRESH_INDICATOR_MS, REFRESH_RELOAD_DELAY_MS } from '@outpost/contract/limits';
import { deviceMessages } from '@outpost/contract/messages';
import { Button } from '../../../components/ui/button';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useRefreshInventory } from '../api/refresh-inventory';

/**
 * spec: core §4 Data refresh — ask the agent to report `kind` again; after about 2 s the data
 * reloads and the indicator clears after about 3 s.
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
  const [isRefreshing, setIsRefreshing] = useState(false);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);
  useEffect(() => () => timers.current.forEach(clearTimeout), []);

  const start = () => {
    setIsRefreshing(true);
    refresh.mutate(
      { idOrGuid, kind },
      {
        onError: (err) =>
          toast.show({
            type: 'error',
            title: deviceMessages.refreshFailed(kind),
            message: errorMessage(err, deviceMessages.refreshFailed(kind)),
          }),
      },
    );
    timers.current.push(setTimeout(onReload, REFRESH_RELOAD_DELAY_MS));
    timers.current.push(setTimeout(() => setIsRefreshing(false), REFRESH_INDICATOR_MS));
  };

  return (
    <Button
      size="sm"
      variant="ghost"
      onClick={start}
      disabled={isRefreshing || isDisabled}
      title={isDisabled ? 'The device is offline' : `Ask the device to report its ${kind} again`}
      icon={<RefreshCw className={isRefreshing ? 'size-3.5 animate-spin' : 'size-3.5'} />}
    >
      {isRefreshing ? 'Refreshing...' : `Refresh ${kind}`}
    </Button>
  );
}
