import { StepError } from './context';
import type { DeviceSteps, StepContext, StepHandler } from './context';
import { numberField } from './wait';

// docs/product/rollouts.md#reboot-message-and-wait-steps — MESSAGE: a notice to the user logged
// in on the device, through the step executor (msg, osascript, notify-send/wall). Who is logged
// in comes from the device backend's sessions; with no one there the step completes with a note.

export const NO_USER_NOTE = 'No user is logged in: the message was not shown';

/** The step executor, or a step error when this agent has none (an older host). */
export function deviceOf(ctx: StepContext): DeviceSteps {
  if (!ctx.device) {
    throw new StepError('This agent cannot reach the device’s users (no step executor)', false);
  }
  return ctx.device;
}

const text = (details: Record<string, unknown>, key: string) => {
  const v = details[key];
  return typeof v === 'string' ? v.trim() : '';
};

export const runMessageStep: StepHandler = async (details, ctx) => {
  const { executor } = deviceOf(ctx);
  const sessions = await executor.sessions();
  if (sessions.length === 0) {
    ctx.stdout(`${NO_USER_NOTE}\n`);
    return { status: 'completed', exitCode: null, rebootRequired: false, note: NO_USER_NOTE };
  }
  const timeout = numberField(details, 'timeout_seconds', 0);
  await executor.showMessage({
    title: text(details, 'title'),
    message: text(details, 'message'),
    ...(timeout > 0 && { timeoutSeconds: timeout }),
  });
  const users = [...new Set(sessions.map((s) => s.userName))].join(', ');
  ctx.stdout(`Message shown to ${users}\n`);
  return { status: 'completed', exitCode: null, rebootRequired: false };
};
