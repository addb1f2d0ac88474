import { useCallback, useState } from 'react';
import type { DeviceActionType, DeviceListItem } from '@outpost/contract/devices';
import { isDeviceActionable } from '@outpost/contract/devices';
import { deviceMessages } from '@outpost/contract/messages';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useCreateDeviceAction } from '../api/create-device-action';
import { actionWords } from '../components/device-action-dialog';
import type { PendingAction } from '../components/device-action-dialog';
import { deviceName } from './device-format';

/**
 * Restart and shutdown from the device list (docs/product/deployments.md#deploy-dialog-rules): ask names the devices (only those
 * online take part), confirm sends the action, and the outcome is a toast or the page's error.
 */
export function useDeviceActions(onDone: () => void) {
  const toast = useToast();
  const action = useCreateDeviceAction();
  const [pending, setPending] = useState<PendingAction>(null);
  const [error, setError] = useState<string | null>(null);

  // stable: the device list's columns hold it and keep their identity (memoised rows)
  const ask = useCallback((kind: DeviceActionType, devices: DeviceListItem[]) => {
    setError(null);
    const targets = devices.filter((d) => isDeviceActionable(d.status));
    if (targets.length === 0) {
      setError(deviceMessages.selectDevicesFirst);
      return;
    }
    setPending({ action: kind, devices: targets });
  }, []);

  const confirm = () => {
    if (!pending) {
      return;
    }
    const words = actionWords[pending.action];
    action.mutate(
      { device_ids: pending.devices.map((d) => d.id), action_type: pending.action },
      {
        onSuccess: (res) => {
          toast.show({
            type: 'success',
            title: words.done,
            message:
              res.created === 1
                ? `${deviceName(pending.devices[0]!)} will ${words.verb} now.`
                : `${res.created} devices will ${words.verb} now.`,
          });
          onDone();
          setPending(null);
        },
        onError: (err) => {
          setError(deviceMessages.actionFailed(words.verb, errorMessage(err, '')));
          setPending(null);
        },
      },
    );
  };

  return {
    pending,
    ask,
    confirm,
    cancel: () => setPending(null),
    isBusy: action.isPending,
    error,
    setError,
  };
}
