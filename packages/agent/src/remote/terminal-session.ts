import type { AgentRemoteMessage, TerminalExitMessage } from '@outpost/contract/agent-protocol';

// One terminal session on the agent (docs/agent.md "Remote access",
// docs/decisions/2026-11-27-remote-terminal.md): the pseudo-terminal's output is coalesced
// (sent every FLUSH_MS or once FLUSH_BYTES wait) and bounded to the session's bytes per second by
// pausing the pseudo-terminal, so nothing is lost; input is only ever written to it. No input or
// output for the idle timeout, or the longest session reached, ends it.

/** What a session needs of a pseudo-terminal (node-pty, or the simulator's fake shell). */
export type PtyProcess = {
  readonly pid: number;
  onData(listener: (data: string | Buffer) => void): void;
  onExit(listener: (e: { exitCode: number; signal?: number }) => void): void;
  /** text typed or pasted in the browser (UTF-8) */
  write(data: string): void;
  resize(cols: number, rows: number): void;
  pause(): void;
  resume(): void;
  /** ends the shell and every process it started */
  kill(): void;
};

export const FLUSH_MS = 10;
export const FLUSH_BYTES = 16 * 1024;
/** the raw bytes of one output frame (its base64 fits the protocol's 90 000 characters) */
export const MAX_FRAME_BYTES = 48 * 1024;

export type SessionLimits = {
  idleTimeoutSeconds: number;
  maxSeconds: number;
  maxBytesPerSecond: number;
};

export class TerminalSession {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private flushTimer: NodeJS.Timeout | null = null;
  private idleTimer: NodeJS.Timeout | null = null;
  private readonly maxTimer: NodeJS.Timeout;
  private tokens: number;
  private refilledAt = Date.now();
  private paused = false;
  private seq = 0;
  private ended = false;

  constructor(
    readonly sessionId: string,
    private readonly pty: PtyProcess,
    private readonly limits: SessionLimits,
    private readonly send: (message: AgentRemoteMessage) => void,
    private readonly onEnd: (session: TerminalSession) => void = () => undefined,
  ) {
    this.tokens = limits.maxBytesPerSecond;
    pty.onData((data) => this.output(data));
    pty.onExit(({ exitCode }) => this.end('exited', exitCode));
    this.maxTimer = setTimeout(() => this.close('max_length'), limits.maxSeconds * 1000);
    this.touch();
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** keystrokes from the browser: written to the pseudo-terminal as they are, never evaluated */
  input(data: Buffer): void {
    if (!this.ended) {
      this.touch();
      this.pty.write(data.toString('utf8'));
    }
  }

  resize(cols: number, rows: number): void {
    if (!this.ended) {
      this.touch();
      this.pty.resize(cols, rows);
    }
  }

  /** ends the session: the shell's process tree is killed, the server told why */
  close(reason: TerminalExitMessage['reason'], message?: string): void {
    if (this.ended) {
      return;
    }
    this.end(reason, null, message);
    try {
      this.pty.kill();
    } catch {
      // already gone
    }
  }

  private touch() {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
    }
    this.idleTimer = setTimeout(() => this.close('idle'), this.limits.idleTimeoutSeconds * 1000);
  }

  private output(data: string | Buffer) {
    if (this.ended) {
      return;
    }
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    this.touch(); // output counts as activity (docs/product/remote-access.md#settings)
    this.pending.push(bytes);
    this.pendingBytes += bytes.length;
    if (this.pendingBytes >= FLUSH_BYTES) {
      this.flush();
    } else {
      this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS);
    }
  }

  /** sends what waits, as far as the rate allows; pauses the pseudo-terminal while over it */
  private flush(drainAll = false) {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    const rate = this.limits.maxBytesPerSecond;
    const now = Date.now();
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
    while (this.pendingBytes > 0 && (drainAll || this.tokens >= 1)) {
      const all = Buffer.concat(this.pending);
      const size = Math.min(all.length, MAX_FRAME_BYTES, drainAll ? all.length : Math.floor(this.tokens));
      this.send({
        type: 'terminal_output',
        sessionId: this.sessionId,
        seq: ++this.seq,
        data: all.subarray(0, size).toString('base64'),
      });
      this.tokens -= size;
      const rest = all.subarray(size);
      this.pending = rest.length > 0 ? [rest] : [];
      this.pendingBytes = rest.length;
    }
    if (this.pendingBytes > 0) {
      // over the rate: the shell waits (its writes block) until the budget refills
      if (!this.paused) {
        this.paused = true;
        this.pty.pause();
      }
      const waitMs = Math.ceil((Math.min(this.pendingBytes, MAX_FRAME_BYTES) * 1000) / rate);
      this.flushTimer = setTimeout(() => this.flush(), Math.max(FLUSH_MS, waitMs));
    } else if (this.paused) {
      this.paused = false;
      this.pty.resume();
    }
  }

  private end(reason: TerminalExitMessage['reason'], exitCode: number | null, message?: string) {
    if (this.ended) {
      return;
    }
    // what the shell wrote before it ended still reaches the browser, before the exit
    if (reason === 'exited') {
      this.flush(true);
    }
    this.ended = true;
    for (const t of [this.flushTimer, this.idleTimer, this.maxTimer]) {
      if (t) {
        clearTimeout(t);
      }
    }
    this.pending = [];
    this.pendingBytes = 0;
    this.send({
      type: 'terminal_exit',
      sessionId: this.sessionId,
      reason,
      exitCode,
      ...(message && { message }),
    });
    this.onEnd(this);
  }
}
