import crypto from 'node:crypto';
import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import type { StepProgress } from '../steps/run-deployment';

// The reports of one run_deployment command as acked step_progress messages, numbered 1, 2, 3 …
// (`seq`, so the server applies a resent message once and in order). Reports are coalesced per
// step attempt (docs/architecture.md#deployments "How the agent runs deployments"): a report waits up to
// `windowMs` for the next ones of its attempt, and what is sent is the attempt's latest state
// (its status, start and end fields, and all output since the previous message), so a step that
// starts, prints and ends within the window is one message, not three. Output of a long step
// streams at most once per `intervalMs`. Nothing is dropped and the order is kept: messages
// leave in the order their attempts began, a flood of output only makes them bigger (split at the
// protocol's 65,536 characters per field), and close() sends everything still waiting.

/** The protocol's limit for stdout and stderr of one message. */
export const MAX_OUTPUT_CHARS = 65_536;
/** The protocol's limit for errorMessage. */
const MAX_ERROR_CHARS = 4000;

export type ProgressOptions = {
  /** at most one output message per step attempt this often */
  intervalMs: number;
  /** how long a report waits for the next reports of its step attempt (0: status reports go at once) */
  windowMs: number;
  /** characters of stdout (and of stderr) per message */
  maxChars: number;
  now: () => number;
};

export const DEFAULT_PROGRESS_OPTIONS: ProgressOptions = {
  intervalMs: 500,
  windowMs: 100,
  maxChars: MAX_OUTPUT_CHARS,
  now: () => Date.now(),
};

/** A report's fields other than its step, attempt and output (status, start, end, exit code, error). */
type StatusFields = Omit<StepProgress, 'stepOrder' | 'attempt' | 'stdout' | 'stderr'>;

/** What one step attempt reported since its previous message. */
type Waiting = {
  stepOrder: number;
  attempt: number | undefined;
  /** the latest status report merged over the earlier ones; null while only output waits */
  fields: StatusFields | null;
  stdout: string;
  stderr: string;
  /** when it is sent at the latest */
  dueAt: number;
};

/** Whether a report only carries output (the library's chunks of a running attempt). */
export function isOutputOnly(p: StepProgress): boolean {
  return (
    p.status === 'running' &&
    (typeof p.stdout === 'string' || typeof p.stderr === 'string') &&
    p.startedAt === undefined &&
    p.exitCode === undefined &&
    p.errorMessage === undefined
  );
}

/**
 * PostgreSQL text cannot hold NUL, and the server refuses a message containing one (a Windows
 * program printing UTF-16 would otherwise lose its whole log).
 */
const clean = (text: string) => text.replaceAll('\u0000', '');

/** The first `max` UTF-16 units of `text`, one fewer rather than half a surrogate pair. */
export function head(text: string, max: number): string {
  if (text.length <= max) {
    return text;
  }
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

const keyOf = (p: Pick<StepProgress, 'stepOrder' | 'attempt'>) => `${p.stepOrder}/${p.attempt ?? 0}`;

export class ProgressStream {
  private seq = 0;
  /** per step attempt, in the order the attempts began (a Map keeps insertion order) */
  private readonly waiting = new Map<string, Waiting>();
  private readonly lastSentAt = new Map<string, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private timerAt = Infinity;
  private isClosed = false;
  private readonly options: ProgressOptions;

  constructor(
    private readonly commandId: string,
    private readonly send: (message: StepProgressMessage) => void,
    options: Partial<ProgressOptions> = {},
  ) {
    this.options = { ...DEFAULT_PROGRESS_OPTIONS, ...options };
  }

  /** The number of messages sent so far (the last seq). */
  get sent(): number {
    return this.seq;
  }

  /** Goes on numbering after `seq`: a deployment resumed after a restart (deployment/reboot-resume.ts). */
  resumeAfter(seq: number): void {
    this.seq = Math.max(this.seq, seq);
  }

  report(progress: StepProgress): void {
    if (this.isClosed) {
      return;
    }
    const key = keyOf(progress);
    let w = this.waiting.get(key);
    if (!w) {
      w = {
        stepOrder: progress.stepOrder,
        attempt: progress.attempt,
        fields: null,
        stdout: '',
        stderr: '',
        dueAt: Infinity,
      };
      this.waiting.set(key, w);
    }
    w.stdout += clean(progress.stdout ?? '');
    w.stderr += clean(progress.stderr ?? '');
    const { now, windowMs, intervalMs } = this.options;
    const at = now();
    if (isOutputOnly(progress)) {
      // output streams at a bounded rate per attempt, and waits the window for a status to ride on
      w.dueAt = Math.min(
        w.dueAt,
        Math.max(at + windowMs, (this.lastSentAt.get(key) ?? -Infinity) + intervalMs),
      );
    } else {
      const { stepOrder: _step, attempt: _attempt, stdout: _out, stderr: _err, ...fields } = progress;
      w.fields = { ...w.fields, ...fields };
      w.dueAt = Math.min(w.dueAt, at + windowMs);
    }
    this.sendDue();
  }

  /** Sends everything still waiting; later reports are ignored. */
  close(): void {
    if (!this.isClosed) {
      this.sendUpTo(this.waiting.size);
      this.isClosed = true;
    }
  }

  /** Forgets everything still waiting and ignores later reports (the agent is going away). */
  abandon(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.waiting.clear();
    this.isClosed = true;
  }

  /** Sends the attempts that are due, with every attempt that began before them (order), then waits for the next. */
  private sendDue(): void {
    const now = this.options.now();
    const list = [...this.waiting.values()];
    let last = -1;
    list.forEach((w, i) => {
      if (w.dueAt <= now) {
        last = i;
      }
    });
    this.sendUpTo(last + 1);
    const next = Math.min(...[...this.waiting.values()].map((w) => w.dueAt));
    if (next === Infinity || next >= this.timerAt) {
      return;
    }
    clearTimeout(this.timer);
    this.timerAt = next;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.timerAt = Infinity;
      this.sendDue();
    }, next - now);
  }

  /** Sends the first `count` waiting attempts, in order. */
  private sendUpTo(count: number): void {
    const keys = [...this.waiting.keys()].slice(0, count);
    for (const key of keys) {
      const w = this.waiting.get(key)!;
      this.waiting.delete(key);
      this.sendAttempt(w);
      this.lastSentAt.set(key, this.options.now());
    }
    if (this.waiting.size === 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.timerAt = Infinity;
    }
  }

  /** One message, or several when the output is longer than a message may carry (the status goes last). */
  private sendAttempt(w: Waiting): void {
    const max = this.options.maxChars;
    let { stdout, stderr } = w;
    const attempt = w.attempt !== undefined ? { attempt: w.attempt } : {};
    // the output that does not fit goes first, as output of the running attempt (with its start)
    while (stdout.length > max || stderr.length > max) {
      const out = head(stdout, max);
      const err = head(stderr, max);
      stdout = stdout.slice(out.length);
      stderr = stderr.slice(err.length);
      this.emit({
        stepOrder: w.stepOrder,
        status: 'running',
        ...attempt,
        ...(w.fields?.startedAt !== undefined && { startedAt: w.fields.startedAt }),
        ...(out !== '' && { stdout: out }),
        ...(err !== '' && { stderr: err }),
      });
    }
    const { errorMessage, ...fields } = w.fields ?? { status: 'running' as const };
    this.emit({
      stepOrder: w.stepOrder,
      ...attempt,
      ...fields,
      ...(stdout !== '' && { stdout }),
      ...(stderr !== '' && { stderr }),
      ...(errorMessage !== undefined && {
        errorMessage: errorMessage === null ? null : head(clean(errorMessage), MAX_ERROR_CHARS),
      }),
    });
  }

  private emit(progress: StepProgress): void {
    this.seq += 1;
    this.send({
      type: 'step_progress',
      messageId: crypto.randomUUID(),
      commandId: this.commandId,
      seq: this.seq,
      ...progress,
    });
  }
}
