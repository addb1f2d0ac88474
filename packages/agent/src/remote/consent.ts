import { isDryRun } from '../actions/executor';
import { defaultRunner } from '../actions/user-commands';
import { consentCommand } from '../actions/user-commands';
import type { Runner } from '../actions/executor';
import type { StepExecutor } from '../actions/step-executor';

// The terminal's consent and banner (docs/agent.md "Remote access"): they reach the user signed
// in on the device the way MESSAGE steps do (the step executor's sessions and notices). The
// question waits CONSENT_SECONDS; a refusal, no answer, nobody signed in, or an OS where the agent
// cannot ask (Linux) all refuse the session. Under a dry run (tests, the simulator) nothing is
// shown: OUTPOST_AGENT_TERMINAL_CONSENT=allow answers yes, anything else no.

export const CONSENT_SECONDS = 60;
export const NO_USER_TO_ASK = 'Nobody is signed in on the device to allow the session';
export const CANNOT_ASK = 'This device cannot ask its user for consent';
export const USER_REFUSED = 'The user on the device did not allow the session';

export type Consent = {
  /** null: allowed; otherwise why not */
  ask(requestedBy: string, signal: AbortSignal): Promise<string | null>;
  /** best effort: a notice that a session started or ended */
  banner(text: string): void;
};

export function deviceConsent(
  executor: StepExecutor,
  platform: NodeJS.Platform = process.platform,
  runner?: Runner,
): Consent {
  return {
    async ask(requestedBy, signal) {
      const sessions = await executor.sessions().catch(() => []);
      if (sessions.length === 0) {
        return NO_USER_TO_ASK;
      }
      const notice = {
        title: 'Remote terminal',
        message: `${requestedBy} asks to open a terminal on this computer. Allow it?`,
        timeoutSeconds: CONSENT_SECONDS,
      };
      if (!runner && isDryRun()) {
        await executor.showMessage(notice).catch(() => undefined);
        return process.env.OUTPOST_AGENT_TERMINAL_CONSENT === 'allow' ? null : USER_REFUSED;
      }
      const run = runner ?? defaultRunner;
      const command = await consentCommand(platform, notice, run);
      if (!command) {
        return CANNOT_ASK;
      }
      const answer = await Promise.race([
        run(command.file, command.args).then(
          ({ stdout }) => stdout,
          () => '',
        ),
        new Promise<string>((resolve) => {
          const t = setTimeout(() => resolve(''), (CONSENT_SECONDS + 5) * 1000);
          signal.addEventListener('abort', () => {
            clearTimeout(t);
            resolve('');
          });
        }),
      ]);
      const allowed =
        /^\s*allow\s*$/i.test(answer) ||
        (/button returned:Allow/.test(answer) && !/gave up:true/.test(answer));
      return allowed ? null : USER_REFUSED;
    },
    banner(text) {
      void executor
        .sessions()
        .then((s) =>
          s.length > 0 ? executor.showMessage({ title: 'Remote terminal', message: text }) : undefined,
        )
        .catch(() => undefined);
    },
  };
}
