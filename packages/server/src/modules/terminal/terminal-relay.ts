import type { WebSocket } from 'ws';
import type {
  AgentRemoteMessage,
  ServerRemoteMessage,
  TerminalShell,
} from '@outpost/contract/agent-protocol';
import { TERMINAL_END_TEXT, TerminalClientMessage, terminalMessages } from '@outpost/contract/terminal';
import type { TerminalEndReason, TerminalServerMessage } from '@outpost/contract/terminal';
import type { Bus } from '../../live/bus';
import type { AsciicastWriter } from './asciicast';

// One terminal session on the browser's instance (docs/product/remote-access.md#terminal): the
// browser's frames go to the device's agent wherever its socket is (`agent.remote`, numbered),
// the agent's answers come back on `remote.reply` under the session id (the service hands them
// here, in order) and go to the browser and the recording. Whatever ends it (the shell, the
// browser, a limit, the device going offline) ends it once: `onEnd` records why.

/** how long the agent has to say terminal_started (consent adds the prompt's minute) */
export const START_TIMEOUT_MS = 20_000;
export const CONSENT_TIMEOUT_MS = 80_000;

export type RelaySummary = {
  reason: TerminalEndReason;
  message: string;
  shell: string;
  bytesIn: number;
  bytesOut: number;
};

export type RelayOptions = {
  sessionId: string;
  deviceId: number;
  bus: Pick<Bus, 'publish'>;
  socket: WebSocket;
  recorder: AsciicastWriter;
  shell: TerminalShell;
  cols: number;
  rows: number;
  requestedBy: string;
  consent: boolean;
  banner: boolean;
  idleTimeoutSeconds: number;
  maxSeconds: number;
  maxBytesPerSecond: number;
  /** records the end; the browser hears it once recorded (its sessions list then says why) */
  onEnd: (summary: RelaySummary) => Promise<void>;
  startTimeoutMs?: number;
};

export class TerminalRelay {
  private inSeq = 0;
  private outSeq = 0;
  private bytesIn = 0;
  private bytesOut = 0;
  private shellName: string;
  private ended = false;
  private startTimer: NodeJS.Timeout | null;
  private tokens: number;
  private refilledAt = Date.now();
  private warnedRate = false;

  constructor(private readonly o: RelayOptions) {
    this.shellName = o.shell;
    this.tokens = o.maxBytesPerSecond;
    const wait = o.startTimeoutMs ?? (o.consent ? CONSENT_TIMEOUT_MS : START_TIMEOUT_MS);
    this.startTimer = setTimeout(() => this.end('no_answer'), wait);
    o.socket.on('message', (data, isBinary) => this.fromBrowser(isBinary ? '' : rawText(data)));
    o.socket.on('close', () => this.end('disconnected'));
    o.socket.on('error', () => this.end('disconnected'));
  }

  get deviceId(): number {
    return this.o.deviceId;
  }

  /** asks the agent for the session */
  open(): void {
    const o = this.o;
    this.toBrowser({ type: 'status', state: o.consent ? 'consent' : 'opening', sessionId: o.sessionId });
    this.toAgent({
      type: 'terminal_open',
      sessionId: o.sessionId,
      shell: o.shell,
      cols: o.cols,
      rows: o.rows,
      requestedBy: o.requestedBy,
      consent: o.consent,
      banner: o.banner,
      idleTimeoutSeconds: o.idleTimeoutSeconds,
      maxSeconds: o.maxSeconds,
      maxBytesPerSecond: o.maxBytesPerSecond,
    });
  }

  fromAgent(m: AgentRemoteMessage): void {
    if (this.ended) {
      return;
    }
    switch (m.type) {
      case 'terminal_started':
        this.clearStart();
        this.shellName = m.shell;
        this.toBrowser({ type: 'started', sessionId: this.o.sessionId, shell: m.shell });
        return;
      case 'terminal_output': {
        if (m.seq <= this.outSeq) {
          return; // a duplicate
        }
        this.clearStart();
        this.outSeq = m.seq;
        const bytes = Buffer.from(m.data, 'base64');
        this.bytesOut += bytes.length;
        this.o.recorder.output(bytes);
        this.outputToBrowser(bytes);
        return;
      }
      case 'terminal_exit':
        this.end(m.reason, m.message ?? undefined, m.exitCode ?? null, false);
        return;
      case 'fs_list_result':
      case 'file_status':
        return;
    }
  }

  /** ends the session (the agent is told unless it is the one that ended it) */
  end(reason: TerminalEndReason, message?: string, exitCode: number | null = null, tellAgent = true): void {
    if (this.ended) {
      return;
    }
    this.ended = true;
    this.clearStart();
    const text = message ?? TERMINAL_END_TEXT[reason];
    if (tellAgent && reason !== 'device_offline') {
      this.toAgent({ type: 'terminal_close', sessionId: this.o.sessionId, reason: text.slice(0, 500) });
    }
    void this.o
      .onEnd({ reason, message: text, shell: this.shellName, bytesIn: this.bytesIn, bytesOut: this.bytesOut })
      .finally(() => {
        this.toBrowser({ type: 'ended', reason, message: text, exitCode });
        if (this.o.socket.readyState === this.o.socket.OPEN) {
          this.o.socket.close(1000, 'Session ended');
        }
      });
  }

  private clearStart() {
    if (this.startTimer) {
      clearTimeout(this.startTimer);
      this.startTimer = null;
    }
  }

  private fromBrowser(raw: string) {
    if (this.ended) {
      return;
    }
    let parsed: TerminalClientMessage;
    try {
      const r = TerminalClientMessage.safeParse(JSON.parse(raw));
      if (!r.success) {
        return;
      }
      parsed = r.data;
    } catch {
      return;
    }
    switch (parsed.type) {
      case 'input': {
        const bytes = Buffer.from(parsed.data, 'utf8');
        if (!this.takeInput(bytes.length)) {
          if (!this.warnedRate) {
            this.warnedRate = true;
            this.toBrowser({ type: 'notice', message: terminalMessages.inputTooFast });
          }
          return;
        }
        this.bytesIn += bytes.length;
        this.toAgent({
          type: 'terminal_input',
          sessionId: this.o.sessionId,
          seq: ++this.inSeq,
          data: bytes.toString('base64'),
        });
        return;
      }
      case 'resize':
        this.o.recorder.resize(parsed.cols, parsed.rows);
        this.toAgent({
          type: 'terminal_resize',
          sessionId: this.o.sessionId,
          cols: parsed.cols,
          rows: parsed.rows,
        });
        return;
      case 'close':
        this.end('closed');
        return;
    }
  }

  /** the session's bytes per second apply to input too: what is over is dropped, with a notice */
  private takeInput(size: number): boolean {
    const rate = this.o.maxBytesPerSecond;
    const now = Date.now();
    this.tokens = Math.min(rate, this.tokens + ((now - this.refilledAt) * rate) / 1000);
    this.refilledAt = now;
    if (size > this.tokens) {
      return false;
    }
    this.tokens -= size;
    return true;
  }

  private toAgent(message: ServerRemoteMessage) {
    void this.o.bus.publish('agent.remote', { deviceId: this.o.deviceId, message }).catch(() => undefined);
  }

  /**
   * `{ type: 'output', data }` with the bytes' own base64 (never the agent's text, which only had
   * to be a string): nothing in it needs escaping, so the frame is put together as it is, without
   * JSON.stringify walking 7 KB of text for every chunk of a busy terminal.
   */
  private outputToBrowser(bytes: Buffer) {
    if (this.o.socket.readyState === this.o.socket.OPEN) {
      this.o.socket.send(`{"type":"output","data":"${bytes.toString('base64')}"}`);
    }
  }

  private toBrowser(message: TerminalServerMessage) {
    if (this.o.socket.readyState === this.o.socket.OPEN) {
      this.o.socket.send(JSON.stringify(message));
    }
  }
}

function rawText(data: unknown): string {
  if (Buffer.isBuffer(data)) {
    return data.toString('utf8');
  }
  if (Array.isArray(data)) {
    return Buffer.concat(data as Buffer[]).toString('utf8');
  }
  return Buffer.from(data as ArrayBuffer).toString('utf8');
}
