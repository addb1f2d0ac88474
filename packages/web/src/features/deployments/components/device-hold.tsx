import { Clock } from 'lucide-react';
import type { DeviceDeployment } from '@outpost/contract/deployments';
import { DEVICE_HOLD_LABELS } from '@outpost/contract/rollouts';
import type { DeviceHold } from '@outpost/contract/rollouts';
import type { Tone } from '../../../components/ui/badge';
import { Badge } from '../../../components/ui/badge';
import { relativeTime } from '../../../lib/format';

// Why a device's part is held back now (docs/product/rollouts.md#device-states): a badge with the
// hold's words, "opens in …" for a maintenance window, and the hold's note as secondary text.

const HOLD_TONES: Record<DeviceHold, Tone> = {
  wave: 'gray',
  halted: 'red',
  window: 'purple',
  rebooting: 'blue',
};

/** "opens in 2 hours" for a time ahead; the relative words the rest of the console uses. */
export function opensIn(until: string, now = Date.now()): string {
  const words = relativeTime(until, now);
  return words.startsWith('in ') ? `opens ${words}` : 'opens now';
}

export function DeviceHoldBadge({
  deployment,
}: {
  deployment: Pick<DeviceDeployment, 'hold' | 'hold_until' | 'hold_note'>;
}) {
  const hold = deployment.hold;
  if (!hold) {
    return null;
  }
  return (
    <div className="flex flex-col items-start gap-0.5" data-testid="device-hold" data-hold={hold}>
      <span title={deployment.hold_note ?? undefined}>
        <Badge tone={HOLD_TONES[hold]}>{DEVICE_HOLD_LABELS[hold]}</Badge>
      </span>
      {hold === 'window' && deployment.hold_until && (
        <span className="inline-flex items-center gap-1 text-xs text-slate-500 dark:text-slate-400">
          <Clock className="size-3" aria-hidden />
          {opensIn(deployment.hold_until)}
        </span>
      )}
      {deployment.hold_note && (
        <span className="line-clamp-2 max-w-56 text-xs text-slate-500 dark:text-slate-400">
          {deployment.hold_note}
        </span>
      )}
    </div>
  );
}
