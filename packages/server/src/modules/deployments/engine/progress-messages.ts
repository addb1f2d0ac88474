import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { INT4_MAX } from '@outpost/contract/input';
import type { JobRow } from '../deployments.queries';
import { keepHeadAndTail } from '../step-log-rules';
import type { ProgressWrite } from './agent-progress.queries';

// Step progress messages as the step log sees them (no I/O): which of them a device row has not
// applied yet, one message per attempt, and the log an attempt writes.

/** exit codes that ask for a reboot when their step completes */
export const REBOOT_CODES = [3010, 1641];

const parseTime = (text: string | undefined, fallback: Date) => {
  const t = text ? new Date(text) : null;
  return t && !Number.isNaN(t.getTime()) ? t : fallback;
};

/**
 * The messages a device row has not applied yet (seq above its `progressSeq`, so a resent message
 * is applied once). seq 1 again after others means the agent started the command over (it
 * restarted mid-run and was offered the command again): the messages before it are dropped.
 */
export function unapplied(
  progressSeq: number,
  messages: StepProgressMessage[],
): { fresh: StepProgressMessage[]; isRestart: boolean } {
  let seq = progressSeq;
  let isRestart = false;
  const fresh: StepProgressMessage[] = [];
  for (const m of messages) {
    if (m.seq === 1 && seq > 0) {
      isRestart = true;
      fresh.length = 0;
    } else if (m.seq <= seq) {
      continue;
    }
    seq = m.seq;
    fresh.push(m);
  }
  return { fresh, isRestart };
}

/**
 * One message per attempt (step and attempt), in the order the attempts first appear: the
 * attempt's messages merged as the log applies them one by one: output appended, the first final
 * status kept (a later one adds only its output), the start of the first message that had one.
 */
export function attemptsOf(messages: StepProgressMessage[]): StepProgressMessage[] {
  const byAttempt = new Map<string, StepProgressMessage>();
  for (const m of messages) {
    const key = `${m.stepOrder}/${m.attempt ?? 1}`;
    const before = byAttempt.get(key);
    byAttempt.set(key, before ? mergeProgress(before, m) : m);
  }
  return [...byAttempt.values()];
}

function mergeProgress(a: StepProgressMessage, b: StepProgressMessage): StepProgressMessage {
  const joined = (x: string | null | undefined, y: string | null | undefined) => {
    const text = (x ?? '') + (y ?? '');
    return text === '' ? undefined : text;
  };
  const output = { stdout: joined(a.stdout, b.stdout), stderr: joined(a.stderr, b.stderr) };
  // the latest note wins (a deferred reboot, then the restart; docs/product/rollouts.md#step-log)
  const note = b.note ?? a.note;
  if (a.status !== 'running') {
    return { ...a, ...output, note };
  }
  return { ...a, ...b, startedAt: a.startedAt ?? b.startedAt, ...output, note };
}

/** The notes of an attempt: its number when retried, a reboot asked for, a retry to come. */
export function notesFor(m: StepProgressMessage, retryCount: number, attempt: number): string | null {
  const notes: string[] = [];
  if (attempt > 1) {
    notes.push(`Attempt ${attempt} of ${retryCount + 1}`);
  }
  if (m.status === 'completed' && m.exitCode != null && REBOOT_CODES.includes(m.exitCode)) {
    notes.push(`Reboot required (exit code ${m.exitCode})`);
  }
  if (m.status === 'failed' && attempt <= retryCount) {
    notes.push(`Failed; the step is retried (attempt ${attempt + 1} of ${retryCount + 1} next)`);
  }
  return notes.length > 0 ? notes.join('\n') : null;
}

/**
 * What a row's fresh messages do to its 'rebooting' hold: the last one reporting a restart sets it
 * (with its note), any later message clears it (the agent is back); null: clear a rebooting hold.
 */
export function rebootHoldOf(fresh: StepProgressMessage[]): { note: string } | null {
  const last = fresh.at(-1);
  return last?.hold === 'rebooting' ? { note: last.note ?? 'Rebooting' } : null;
}

/** An attempt's log as a (merged) message writes it: the step's name, the notes, its times. */
export function stepLogOf(m: StepProgressMessage, job: JobRow, now: Date): ProgressWrite['logs'][number] {
  const step = job.steps.find((s) => s.stepOrder === m.stepOrder);
  const attempt = m.attempt ?? 1;
  const isFinal = m.status !== 'running';
  const startedAt = parseTime(m.startedAt, now);
  const completedAt = parseTime(m.completedAt, now);
  const stdout = keepHeadAndTail(m.stdout ?? '');
  const stderr = keepHeadAndTail(m.stderr ?? '');
  return {
    stepOrder: m.stepOrder,
    stepName: step?.stepName ?? `Step ${m.stepOrder}`,
    attempt,
    status: m.status,
    startedAt,
    stdoutLog: stdout.text,
    stdoutCutBytes: stdout.cutBytes,
    stderrLog: stderr.text,
    stderrCutBytes: stderr.cutBytes,
    note: m.note ?? null,
    ...(isFinal && {
      exitCode: m.exitCode ?? null,
      completedAt,
      durationMs: Math.min(INT4_MAX, Math.max(0, completedAt.getTime() - startedAt.getTime())),
      errorMessage: m.errorMessage ?? null,
      output: notesFor(m, step?.retryCount ?? 0, attempt),
      // why a step did not run: a false condition (docs/product/rollouts.md#step-conditions)
      note: m.note ?? null,
    }),
  };
}
