import type { DeviceActionType } from '@outpost/contract/devices';
import { RecordingExecutor } from '../actions/executor';

// Restart and shutdown on a simulated machine: the machine really goes away — its
// agent stops and the socket closes, as when the OS shuts the agent's service down — and comes
// back after a while with a fresh agent, as a rebooted (or powered-on again) machine would.
// Nothing here touches the host: the executor only records.

export type PowerOptions = {
  /** how long a restarting machine is gone (its agent says goodbye, so it shows offline at once) */
  restartDownMs: number;
  /** how long a shut-down machine stays off before someone powers it on again */
  shutdownDownMs: number;
};

export const DEFAULT_POWER: PowerOptions = { restartDownMs: 20_000, shutdownDownMs: 5 * 60_000 };

/** Records every call like RecordingExecutor and tells the fleet when the machine powers off. */
export class SimulatedExecutor extends RecordingExecutor {
  onPowerOff: ((action: DeviceActionType) => void) | null = null;

  override async deviceAction(action: DeviceActionType) {
    await super.deviceAction(action);
    this.onPowerOff?.(action);
  }
}

export type PowerCycle = {
  /** stops the running agent, and after the downtime starts a new one; returns once it is off */
  powerOff(action: DeviceActionType): Promise<void>;
  /** powers a machine that is off on again now */
  powerOn(): void;
  isOff(): boolean;
  /** the machine stays off (no automatic power-on) */
  cancel(): void;
};

export function createPowerCycle(
  options: PowerOptions,
  hooks: { stop(): Promise<void>; boot(): void },
): PowerCycle {
  let timer: NodeJS.Timeout | null = null;
  let isOff = false;
  return {
    async powerOff(action) {
      if (isOff) {
        return;
      }
      isOff = true;
      // Let the command's result leave first (the agent sends it before acting).
      await new Promise((r) => setTimeout(r, 200));
      await hooks.stop();
      timer = setTimeout(
        () => {
          timer = null;
          if (isOff) {
            isOff = false;
            hooks.boot();
          }
        },
        action === 'restart' ? options.restartDownMs : options.shutdownDownMs,
      );
      timer.unref();
    },
    powerOn() {
      if (!isOff) {
        return;
      }
      this.cancel();
      isOff = false;
      hooks.boot();
    },
    isOff: () => isOff,
    cancel() {
      if (timer) {
        clearTimeout(timer);
        timer = null;
      }
    },
  };
}
