import type { StepContext, StepHandler } from './context';

// docs/product/rollouts.md#reboot-message-and-wait-steps — WAIT: the deployment pauses for the
// step's seconds; cancelling the deployment ends the pause at once. The step's timeout does not
// apply: the pause is what the step is for.

/**
 * Waits `ms` step milliseconds (scaled by the device's time scale: the simulator runs faster),
 * or less when the signal aborts; true when it aborted.
 */
export function pause(ms: number, ctx: Pick<StepContext, 'signal' | 'device'>): Promise<boolean> {
  const { signal } = ctx;
  const real = ms * (ctx.device?.timeScale ?? 1);
  if (signal.aborted || real <= 0) {
    return Promise.resolve(signal.aborted);
  }
  return new Promise((resolve) => {
    const onAbort = () => {
      clearTimeout(timer);
      resolve(true);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve(false);
    }, real);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** A number field of a step (the catalogue has checked it), or the fallback. */
export function numberField(details: Record<string, unknown>, key: string, fallback: number): number {
  const v = details[key];
  return typeof v === 'number' && Number.isFinite(v) ? v : fallback;
}

export const waitedLine = (seconds: number) => `Waited ${seconds} s`;

export const runWaitStep: StepHandler = async (details, ctx) => {
  const seconds = numberField(details, 'seconds', 1);
  ctx.stdout(`Waiting ${seconds} s\n`);
  if (await pause(seconds * 1000, ctx)) {
    return { status: 'cancelled', exitCode: null };
  }
  ctx.stdout(`${waitedLine(seconds)}\n`);
  return { status: 'completed', exitCode: null, rebootRequired: false };
};
