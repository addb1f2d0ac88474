import type { DeviceStatus } from '@outpost/contract/devices';

// What the actions cell of a device row says when the device cannot be acted on (docs/product/devices.md#device-actions
// Selection: only online and logged-in devices). Each status says why in its own words.

const TEXT: Partial<Record<DeviceStatus, { label: string; reason: string }>> = {
  offline: { label: 'Offline', reason: 'Actions are available when the device is back online' },
  error: {
    label: 'Agent error',
    reason: 'The device reports an error; actions are available once its agent works again',
  },
};

const FALLBACK = { label: 'Unavailable', reason: 'Actions are unavailable in this status' };

export function unavailableActionText(status: string): { label: string; reason: string } {
  return TEXT[status as DeviceStatus] ?? FALLBACK;
}

export function UnavailableActions({ status }: { status: string }) {
  const { label, reason } = unavailableActionText(status);
  return (
    <span title={reason} className="text-xs font-medium text-slate-500 dark:text-slate-400">
      {label}
      <span className="sr-only">: {reason}</span>
    </span>
  );
}
