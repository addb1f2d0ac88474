import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { STEP_LOG_MAX_CHARS } from '@outpost/contract/limits';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { ProgressRefusal } from '../../live/agent-reports';

// What an agent may write into a job's step logs (SECURITY.md R2-13): progress only for a step the
// job has and an attempt its retries allow, and each stream of an attempt bounded to its first and
// last halves. Pure functions; the engine and the queries apply them.

type JobStep = { stepOrder: number; retryCount: number };

/** Splits one job's progress into the messages its steps and attempts allow and those refused. */
export function checkProgress(
  steps: readonly JobStep[],
  progress: readonly StepProgressMessage[],
): { accepted: StepProgressMessage[]; refused: ProgressRefusal[] } {
  const accepted: StepProgressMessage[] = [];
  const refused: ProgressRefusal[] = [];
  for (const m of progress) {
    const reason = refusalOf(steps, m);
    if (reason) {
      refused.push({ messageId: m.messageId, reason });
    } else {
      accepted.push(m);
    }
  }
  return { accepted, refused };
}

function refusalOf(steps: readonly JobStep[], m: StepProgressMessage): string | null {
  const step = steps.find((s) => s.stepOrder === m.stepOrder);
  if (!step) {
    return messages.progressUnknownStep(m.stepOrder);
  }
  const attempts = step.retryCount + 1;
  const attempt = m.attempt ?? 1;
  return attempt > attempts ? messages.progressUnknownAttempt(m.stepOrder, attempt, attempts) : null;
}

/**
 * A report of a step that did not run (an earlier step failed, or the deployment was cancelled
 * before it): the agent sends a final status with neither an attempt nor a start
 * (agent `deployment-loop.ts`). It is no attempt: it writes no log and is not the current step.
 */
export function isNotRun(m: Pick<StepProgressMessage, 'status' | 'attempt' | 'startedAt'>): boolean {
  return m.status === 'cancelled' && m.attempt === undefined && m.startedAt === undefined;
}

/** Characters kept from the start of a cut stream; the rest of the limit is its end. */
export const STEP_LOG_HEAD_CHARS = Math.floor(STEP_LOG_MAX_CHARS / 2);
export const STEP_LOG_TAIL_CHARS = STEP_LOG_MAX_CHARS - STEP_LOG_HEAD_CHARS;

/**
 * A stream kept within the limit: its first and last halves joined, and the UTF-8 bytes cut from
 * between them. Counted in code points, as PostgreSQL counts text, so the queries' appends (the
 * same rule in SQL, `engine/agent-progress.queries.ts` `keptLog`) leave the cut exactly after the head.
 */
export function keepHeadAndTail(text: string, max = STEP_LOG_MAX_CHARS): { text: string; cutBytes: number } {
  if (text.length <= max) {
    return { text, cutBytes: 0 }; // UTF-16 units are never fewer than code points
  }
  const points = Array.from(text);
  if (points.length <= max) {
    return { text, cutBytes: 0 };
  }
  const head = Math.floor(max / 2);
  const tail = max - head;
  const cut = points.slice(head, points.length - tail).join('');
  return {
    text: points.slice(0, head).join('') + points.slice(points.length - tail).join(''),
    cutBytes: Buffer.byteLength(cut, 'utf8'),
  };
}

/** A stored stream as people read it: the marker saying how much was cut, where it was cut. */
export function withCutMarker(text: string, cutBytes: number, max = STEP_LOG_MAX_CHARS): string {
  if (cutBytes <= 0) {
    return text;
  }
  const points = Array.from(text);
  const head = Math.floor(max / 2);
  return points.slice(0, head).join('') + messages.stepLogCut(cutBytes) + points.slice(head).join('');
}
