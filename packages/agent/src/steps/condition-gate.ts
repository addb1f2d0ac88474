import type { DeploymentStep, StepProgressMessage } from '@outpost/contract/agent-protocol';
import { ConditionError, evaluateConditions, skippedNote } from './conditions';
import type { ConditionProbes, EarlierStep } from './conditions';

// docs/product/rollouts.md#step-conditions — the step loop asks this before each step: a step
// without conditions, or whose conditions all hold, runs; a false condition skips it (one attempt
// reported 'skipped' with the reason as its note); a condition that cannot be checked fails it
// (one failed attempt, not retried). Apart from deployment-loop.ts so the loop stays small.

type Report = (progress: Omit<StepProgressMessage, 'type' | 'messageId' | 'commandId' | 'seq'>) => void;

/** The attempt the gate ended the step with (an AttemptResult of deployment-loop.ts). */
export type GateAttempt = {
  attempt: 1;
  status: 'skipped' | 'failed';
  exitCode: null;
  errorMessage: string | null;
  note: string | null;
  stdout: '';
  stderr: '';
  startedAt: string;
  completedAt: string;
  rebootRequired: false;
};

/** The step as the gate ended it (a StepResult of deployment-loop.ts), or null: run it. */
export type GateResult = {
  stepOrder: number;
  stepName: string;
  status: 'skipped' | 'failed';
  attempts: [GateAttempt];
  rebootRequired: false;
};

/** The steps before this one: their last attempt's exit code. */
type Earlier = { stepOrder: number; attempts: readonly { exitCode: number | null }[] };

export async function gateStep(
  step: DeploymentStep,
  results: readonly Earlier[],
  opts: { probes: ConditionProbes | undefined; report: Report; now: () => Date },
): Promise<GateResult | null> {
  const earlier: EarlierStep[] = results.map((r) => ({
    stepOrder: r.stepOrder,
    exitCode: r.attempts.at(-1)?.exitCode ?? null,
  }));
  const conditions = step.conditions ?? [];
  if (conditions.length === 0) {
    return null;
  }
  const startedAt = opts.now().toISOString();
  let ended: Pick<GateAttempt, 'status' | 'errorMessage' | 'note'>;
  try {
    if (!opts.probes) {
      throw new ConditionError('this agent cannot check step conditions');
    }
    const verdict = await evaluateConditions(conditions, opts.probes, earlier);
    if (verdict.holds) {
      return null;
    }
    ended = { status: 'skipped', errorMessage: null, note: skippedNote(verdict.reason) };
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    ended = { status: 'failed', errorMessage: message.slice(0, 4000), note: null };
  }
  const completedAt = opts.now().toISOString();
  opts.report({
    stepOrder: step.stepOrder,
    status: ended.status,
    attempt: 1,
    exitCode: null,
    errorMessage: ended.errorMessage,
    startedAt,
    completedAt,
    ...(ended.note !== null && { note: ended.note.slice(0, 2000) }),
  });
  const attempt: GateAttempt = {
    attempt: 1,
    exitCode: null,
    stdout: '',
    stderr: '',
    startedAt,
    completedAt,
    rebootRequired: false,
    ...ended,
  };
  return {
    stepOrder: step.stepOrder,
    stepName: step.stepName,
    status: ended.status,
    attempts: [attempt],
    rebootRequired: false,
  };
}
