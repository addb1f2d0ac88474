import crypto from 'node:crypto';
import type { StepProgressMessage } from '@outpost/contract/agent-protocol';
import type { StepProgress } from '../steps/run-deployment';

// The reports of one run_deployment command as acked step_progress messages: numbered 1, 2, 3 …
// (`seq`, so the server applies a resent message once and in order), output coalesced to at
// most one message per step every `intervalMs` (stdout and stderr together), every status report
// (an attempt starting, its final status, a step not run) sent at once, after the output that
// came before it. Nothing is dropped: a flood of output only makes the messages bigger, split
// at the protocol's 65,536 characters per field.

/** The protocol's limit for stdout and stderr of one message. */
export const MAX_OUTPUT_CHARS = 65_536;
/** The protocol's limit for errorMessage. */
const MAX_ERROR_CHARS = 4000;

export type ProgressOptions = {
  /** at most one output message per step this often */
  intervalMs: number;
  /** characters of stdout (and of stderr) per message */
  maxChars: number;
  now: () => number;
};

export const DEFAULT_PROGRESS_OPTIONS: ProgressOptions = {
  intervalMs: 500,
  maxChars: MAX_OUTPUT_CHARS,
  now: () => Date.now(),
};

type Pending = {
  stepOrder: number;
  attempt: number | undefined;
  stdout: string;
  stderr: string;
  timer: ReturnType<typeof setTimeout> | undefined;
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

export class ProgressStream {
  private seq = 0;
  private readonly pending = new Map<string, Pending>();
  private readonly lastOutputAt = new Map<string, number>();
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

  report(progress: StepProgress): void {
    if (this.isClosed) {
      return;
    }
    if (isOutputOnly(progress)) {
      this.addOutput(progress);
      return;
    }
    // The output printed before a status change goes first, so the log reads in order.
    this.flushAll();
    const { stdout, stderr, errorMessage, ...rest } = progress;
    this.emit({
      ...rest,
      ...(typeof stdout === 'string' && { stdout: head(clean(stdout), this.options.maxChars) }),
      ...(typeof stderr === 'string' && { stderr: head(clean(stderr), this.options.maxChars) }),
      ...(errorMessage !== undefined && {
        errorMessage: errorMessage === null ? null : head(clean(errorMessage), MAX_ERROR_CHARS),
      }),
    });
  }

  /** Sends the output still waiting; later reports are ignored. */
  close(): void {
    if (!this.isClosed) {
      this.flushAll();
      this.isClosed = true;
    }
  }

  /** Forgets the output still waiting and ignores later reports (the agent is going away). */
  abandon(): void {
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
    }
    this.pending.clear();
    this.isClosed = true;
  }

  private addOutput(progress: StepProgress): void {
    const key = `${progress.stepOrder}/${progress.attempt ?? 0}`;
    let p = this.pending.get(key);
    if (!p) {
      p = {
        stepOrder: progress.stepOrder,
        attempt: progress.attempt,
        stdout: '',
        stderr: '',
        timer: undefined,
      };
      this.pending.set(key, p);
    }
    p.stdout += clean(progress.stdout ?? '');
    p.stderr += clean(progress.stderr ?? '');
    if (p.timer === undefined && (p.stdout !== '' || p.stderr !== '')) {
      const last = this.lastOutputAt.get(key);
      const wait = last === undefined ? 0 : Math.max(0, last + this.options.intervalMs - this.options.now());
      const entry = p;
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        this.flush(key);
      }, wait);
    }
  }

  private flushAll(): void {
    for (const key of [...this.pending.keys()]) {
      this.flush(key);
    }
  }

  private flush(key: string): void {
    const p = this.pending.get(key);
    if (!p) {
      return;
    }
    clearTimeout(p.timer);
    this.pending.delete(key);
    const max = this.options.maxChars;
    let { stdout, stderr } = p;
    while (stdout !== '' || stderr !== '') {
      const out = head(stdout, max);
      const err = head(stderr, max);
      stdout = stdout.slice(out.length);
      stderr = stderr.slice(err.length);
      this.emit({
        stepOrder: p.stepOrder,
        status: 'running',
        ...(p.attempt !== undefined && { attempt: p.attempt }),
        ...(out !== '' && { stdout: out }),
        ...(err !== '' && { stderr: err }),
      });
    }
    this.lastOutputAt.set(key, this.options.now());
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
