import type { DeviceDeployment } from '@outpost/contract/deployments';
import type { RolloutEvent } from './rollout-view';

// The job's timeline says when devices wait for their maintenance window
// (docs/product/rollouts.md#maintenance-windows, #step-log), free of React.

type Row = Pick<DeviceDeployment, 'hold' | 'hold_until' | 'hold_note'>;

/** "opens Tue 22:00 Europe/Berlin" out of the hold note "… (opens Tue 22:00 Europe/Berlin)". */
const opening = (note: string | null | undefined) => /\((opens [^)]+)\)/.exec(note ?? '')?.[1] ?? null;

/**
 * One timeline moment while devices wait for their window: "Waiting for window: opens Tue 22:00
 * Europe/Berlin (3 devices)", at the soonest opening; null when no device waits.
 */
export function windowWaitEvent(rows: readonly Row[]): RolloutEvent | null {
  const waiting = rows.filter((r) => r.hold === 'window');
  if (waiting.length === 0) {
    return null;
  }
  const soonest = [...waiting].sort(
    (a, b) => Date.parse(a.hold_until ?? '9999-12-31') - Date.parse(b.hold_until ?? '9999-12-31'),
  )[0]!;
  const opens = opening(soonest.hold_note);
  const count = `${waiting.length} device${waiting.length === 1 ? '' : 's'}`;
  return {
    key: 'window-wait',
    label: opens ? `Waiting for window: ${opens} (${count})` : `Waiting for window (${count})`,
    at: soonest.hold_until ?? '',
    tone: 'warn',
  };
}
