import type { StepLog, StepStatus } from '@outpost/contract/deployments';
import type { StepUpdatePayload } from '@outpost/contract/live';

// The step-log dialog while a step runs (docs/product/deployments.md#details, #fields): step_update
// messages change an attempt's status and times, and their stdout/stderr are the output printed
// since the previous update, appended to what is shown. When a step finishes the logs are fetched
// again; what the server then holds wins, except a still-running attempt's output that the live
// chunks have already taken further than the fetch.

const isFinished = (s: StepStatus) => s !== 'pending' && s !== 'running';

export const stepLogOrder = (a: StepLog, b: StepLog) => a.step_order - b.step_order || a.attempt - b.attempt;

/** The attempt a step_update is about: its own number, else the step's latest, else the first. */
function attemptOf(logs: readonly StepLog[], u: StepUpdatePayload): number {
  if (u.attempt !== undefined) {
    return u.attempt;
  }
  const attempts = logs.filter((l) => l.step_order === u.stepOrder).map((l) => l.attempt);
  return attempts.length > 0 ? Math.max(...attempts) : 1;
}

export function applyStepUpdate(logs: readonly StepLog[], u: StepUpdatePayload): StepLog[] {
  const attempt = attemptOf(logs, u);
  const index = logs.findIndex((l) => l.step_order === u.stepOrder && l.attempt === attempt);
  const base: StepLog =
    index >= 0
      ? logs[index]!
      : {
          // not saved yet as far as this screen knows: a stand-in id until the next fetch
          id: -(u.stepOrder * 1000 + attempt),
          step_order: u.stepOrder,
          step_name: u.stepName ?? `Step ${u.stepOrder}`,
          attempt,
          status: u.status,
          duration_ms: null,
          exit_code: null,
          started_at: null,
          completed_at: null,
          stdout_log: '',
          output: null,
          stderr_log: '',
          error_message: null,
        };
  const next: StepLog = {
    ...base,
    status: u.status,
    ...(u.stepName !== undefined && { step_name: u.stepName }),
    ...(u.exitCode !== undefined && { exit_code: u.exitCode }),
    ...(u.errorMessage !== undefined && { error_message: u.errorMessage }),
    ...(u.durationMs !== undefined && { duration_ms: u.durationMs }),
    ...(u.startedAt !== undefined && { started_at: u.startedAt }),
    ...(u.completedAt !== undefined && { completed_at: u.completedAt }),
    ...(u.note !== undefined && { note: u.note }),
    stdout_log: base.stdout_log + (u.stdout ?? ''),
    stderr_log: base.stderr_log + (u.stderr ?? ''),
  };
  const out = [...logs];
  if (index >= 0) {
    out[index] = next;
  } else {
    out.push(next);
    out.sort(stepLogOrder);
  }
  return out;
}

/** Fetched logs merged with what the live updates have shown so far. */
export function mergeFetchedLogs(fetched: readonly StepLog[], shown: readonly StepLog[]): StepLog[] {
  const key = (l: StepLog) => `${l.step_order}:${l.attempt}`;
  const shownByKey = new Map(shown.map((l) => [key(l), l]));
  const fetchedKeys = new Set(fetched.map(key));
  const merged = fetched.map((f) => {
    const s = shownByKey.get(key(f));
    if (!s || isFinished(f.status)) {
      return f;
    }
    if (isFinished(s.status)) {
      return { ...s, id: f.id }; // the live update is newer than the fetch
    }
    return {
      ...f,
      stdout_log: s.stdout_log.length > f.stdout_log.length ? s.stdout_log : f.stdout_log,
      stderr_log: s.stderr_log.length > f.stderr_log.length ? s.stderr_log : f.stderr_log,
    };
  });
  const onlyShown = shown.filter((l) => !fetchedKeys.has(key(l)));
  return [...merged, ...onlyShown].sort(stepLogOrder);
}
