import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import type { RebootRequest, StepExecutor } from '../actions/step-executor';
import type { DeploymentResult } from '../steps/deployment-loop';
import type { RebootPlace, RunJournal } from './journal';
import type { ProgressStream } from './progress';
import type { DeploymentCommand, DeploymentRunner } from './runner';

// docs/product/rollouts.md#reboot-message-and-wait-steps — a deployment across a restart. When a
// step asks for one, the agent saves its place in the journal first (so it resumes once, and
// never runs a completed step again), then tells the server the device is rebooting (the row's
// 'rebooting' hold), then orders the restart. The agent that starts afterwards finds the place,
// marks it taken before it reports anything, reports the step done (which clears the hold) and
// runs the steps after it.

export const BACK_NOTE = 'The device restarted; the deployment went on after the restart';

export type RestartContext = {
  journal: RunJournal;
  stepExecutor: StepExecutor | undefined;
  send: (message: StepProgressMessage) => void;
  newId: () => string;
};

/**
 * At the agent's start: resumes the deployments saved before a restart. Their command ids count
 * as handled, so the server's offer of the same command after the reconnect runs nothing more.
 */
export function resumeSavedDeployments(
  journal: RunJournal,
  handled: Set<string>,
  run: (commandId: string, command: DeploymentCommand) => Promise<void>,
): void {
  for (const [commandId, place] of journal.rebootPlaces()) {
    handled.add(commandId);
    void run(commandId, place.command);
  }
}

/** The place a 'rebooting' command was saved with, if any. */
export function placeOf(journal: RunJournal, commandId: string): RebootPlace | undefined {
  return journal.rebootPlaces().find(([id]) => id === commandId)?.[1];
}

/**
 * Saves the place, reports the reboot and orders it. Resolves with null once the restart is
 * ordered (nothing more is reported: the OS ends the agent), or with why it could not be.
 */
export async function restartForDeployment(
  ctx: RestartContext,
  commandId: string,
  command: DeploymentCommand,
  stream: ProgressStream,
  outcome: DeploymentResult & { restart: NonNullable<DeploymentResult['restart']> },
): Promise<string | null> {
  const { restart } = outcome;
  stream.close(); // every report of the run goes first
  const seq = stream.sent + 1;
  ctx.journal.set(commandId, 'rebooting', {
    command,
    stepOrder: restart.stepOrder,
    attempt: restart.attempt,
    results: outcome.steps,
    seq,
    at: new Date().toISOString(),
  });
  const delay = restart.delaySeconds;
  ctx.send({
    type: 'step_progress',
    messageId: ctx.newId(),
    commandId,
    seq,
    stepOrder: restart.stepOrder,
    attempt: restart.attempt,
    status: 'completed',
    hold: 'rebooting',
    note: `Rebooting (restart ordered in ${delay} s); the deployment goes on when the device is back`,
  });
  const request: RebootRequest = {
    delaySeconds: delay,
    ...(restart.message && { message: restart.message }),
  };
  try {
    if (!ctx.stepExecutor) {
      throw new Error('this agent has no step executor');
    }
    await ctx.stepExecutor.reboot(request);
    return null;
  } catch (err) {
    ctx.journal.set(commandId, 'running');
    return `Step ${restart.stepOrder} could not restart the device: ${err instanceof Error ? err.message : String(err)}`;
  }
}

/**
 * Runs the rest of a deployment after its restart: the step it restarted for is reported done
 * (clearing the hold), then the steps after it; the result holds every step's result.
 */
export async function resumeAfterRestart(
  place: RebootPlace,
  deployments: DeploymentRunner,
  io: Parameters<DeploymentRunner>[1],
): Promise<DeploymentResult> {
  io.report({ stepOrder: place.stepOrder, attempt: place.attempt, status: 'completed', note: BACK_NOTE });
  const rest = place.command.steps.filter((s) => s.stepOrder > place.stepOrder);
  const outcome: DeploymentResult =
    rest.length > 0
      ? await deployments({ ...place.command, steps: rest }, io)
      : { status: 'completed', rebootRequired: false, steps: [] };
  return { ...outcome, steps: [...place.results, ...outcome.steps] };
}
