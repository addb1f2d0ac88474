import { DEFAULT_REBOOT_DELAY_SECONDS } from '@outpost/contract/step-definitions-device';
import type { StepHandler, StepOutcome } from './context';
import { deviceOf } from './message';
import { numberField, pause } from './wait';

// docs/product/rollouts.md#reboot-message-and-wait-steps — REBOOT: with a user logged in and
// deferrals left, the user is asked "Restart now or later?" (Windows, macOS; Linux has no
// prompt); each Later is a note in the step log and a wait. The step then completes asking for
// the restart: the agent saves its place, reports the device rebooting and orders the restart
// (deployment/reboot-resume.ts), and goes on with the next step when it is back.

const PROMPT_TITLE = 'Restart required';
const DEFAULT_PROMPT = 'Your IT department needs to restart this computer to finish installing software.';
/** how long a restart question waits for an answer (no answer: restart now) */
const PROMPT_TIMEOUT_SECONDS = 300;

export const deferralNote = (n: number, of: number, minutes: number) =>
  `Deferred by the user (${n} of ${of}); asking again in ${minutes} min`;
export const restartNote = (delaySeconds: number) =>
  `Restart ordered (in ${delaySeconds} s); the deployment goes on when the device is back`;

export const runRebootStep: StepHandler = async (details, ctx) => {
  const { executor } = deviceOf(ctx);
  const message = typeof details.message === 'string' ? details.message.trim() : '';
  const delaySeconds = numberField(details, 'delay_seconds', DEFAULT_REBOOT_DELAY_SECONDS);
  const maxDeferrals = numberField(details, 'max_deferrals', 0);
  const minutes = numberField(details, 'deferral_minutes', 60);
  let deferrals = 0;
  while (deferrals < maxDeferrals) {
    if ((await executor.sessions()).length === 0) {
      break; // no one to ask
    }
    const answer = await executor.askRestart(
      { title: PROMPT_TITLE, message: message || DEFAULT_PROMPT, timeoutSeconds: PROMPT_TIMEOUT_SECONDS },
      ctx.signal,
    );
    if (answer === 'unsupported') {
      ctx.stdout('This OS has no restart prompt: the device restarts without asking\n');
      break;
    }
    if (answer !== 'later') {
      ctx.stdout('The user chose to restart now\n');
      break;
    }
    deferrals += 1;
    const note = deferralNote(deferrals, maxDeferrals, minutes);
    ctx.stdout(`${note}\n`);
    ctx.note?.(note);
    if (await pause(minutes * 60_000, ctx)) {
      return { status: 'cancelled', exitCode: null };
    }
  }
  ctx.stdout(`Restarting in ${delaySeconds} s\n`);
  return {
    status: 'completed',
    exitCode: null,
    rebootRequired: false,
    note: restartNote(delaySeconds),
    restart: { delaySeconds, ...(message && { message }) },
  };
};

/**
 * EXE and MSI with "Reboot when the installer asks": an installer ending 3010 or 1641 makes the
 * step ask for a restart (no message, 60 s delay), with the same resume as a REBOOT step.
 */
export function withRebootOnRequest(handler: StepHandler): StepHandler {
  return async (details, ctx): Promise<StepOutcome> => {
    const outcome = await handler(details, ctx);
    if (outcome.status === 'completed' && outcome.rebootRequired && details.reboot_on_request === true) {
      ctx.stdout(`The installer asked for a restart: restarting in ${DEFAULT_REBOOT_DELAY_SECONDS} s\n`);
      return {
        ...outcome,
        note: restartNote(DEFAULT_REBOOT_DELAY_SECONDS),
        restart: { delaySeconds: DEFAULT_REBOOT_DELAY_SECONDS },
      };
    }
    return outcome;
  };
}
