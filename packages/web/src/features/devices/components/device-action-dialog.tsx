import type { DeviceActionType, DeviceListItem } from '@outpost/contract/devices';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { deviceName } from '../lib/device-format';

export type PendingAction = { action: DeviceActionType; devices: DeviceListItem[] } | null;

export const actionWords: Record<DeviceActionType, { title: string; verb: string; done: string }> = {
  restart: { title: 'Restart', verb: 'restart', done: 'Restart sent' },
  shutdown: { title: 'Shutdown', verb: 'shutdown', done: 'Shutdown sent' },
};

/** Asks before a restart or shutdown of one device or several (docs/product/deployments.md#deploy-dialog-rules). */
export function DeviceActionDialog({
  pending,
  isBusy,
  onConfirm,
  onCancel,
}: {
  pending: PendingAction;
  isBusy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      isOpen={pending !== null}
      title={
        pending
          ? `${actionWords[pending.action].title} ${pending.devices.length === 1 ? 'device' : 'devices'}?`
          : ''
      }
      message={
        pending && (
          <>
            {pending.devices.length === 1 ? (
              <p>
                <strong className="text-slate-900 dark:text-white">{deviceName(pending.devices[0]!)}</strong>{' '}
                will {actionWords[pending.action].verb} now. Anyone signed in on it loses unsaved work.
              </p>
            ) : (
              <p>
                {pending.devices.length} devices will {actionWords[pending.action].verb} now. Anyone signed in
                on them loses unsaved work.
              </p>
            )}
          </>
        )
      }
      confirmLabel={pending ? actionWords[pending.action].title : 'Confirm'}
      tone={pending?.action === 'shutdown' ? 'danger' : 'primary'}
      isBusy={isBusy}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  );
}
