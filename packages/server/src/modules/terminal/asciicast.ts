import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

// The recording of a terminal session (docs/decisions/2026-11-27-remote-terminal.md): asciicast
// v2, one JSON header line, then one line per event: `[seconds, "o", text]` for output and
// `[seconds, "r", "COLSxROWS"]` for a resize. Typed input is not recorded (passwords). The lines
// stream into the blob store as they happen, gathered into pieces of up to FLUSH_CHARS or
// FLUSH_MS (one file write per piece, not per chunk of output); nothing holds the whole recording.

/** a piece of the recording is written once it holds this many characters… */
export const FLUSH_CHARS = 64 * 1024;
/** …or once its first line is this old */
export const FLUSH_MS = 250;

export type AsciicastHeader = {
  width: number;
  height: number;
  /** unix seconds of the start */
  timestamp: number;
  title: string;
  env: { TERM: string; SHELL: string };
};

export class AsciicastWriter {
  /** the stream the blob store reads */
  readonly stream = new PassThrough();
  private readonly decoder = new StringDecoder('utf8');
  private readonly startedAt: number;
  private finished = false;
  private pending: string[] = [];
  private pendingChars = 0;
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(
    header: AsciicastHeader,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    this.line({ version: 2, ...header });
  }

  private line(value: unknown) {
    if (this.finished) {
      return;
    }
    const text = `${JSON.stringify(value)}\n`;
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars >= FLUSH_CHARS) {
      this.flush();
    } else {
      this.flushTimer ??= setTimeout(() => this.flush(), FLUSH_MS).unref();
    }
  }

  private flush() {
    if (this.flushTimer) {
      clearTimeout(this.flushTimer);
      this.flushTimer = null;
    }
    if (this.pending.length > 0) {
      this.stream.write(this.pending.join(''));
      this.pending = [];
      this.pendingChars = 0;
    }
  }

  private get seconds(): number {
    return Math.round(this.now() - this.startedAt) / 1000;
  }

  /** bytes the terminal wrote; a character split across chunks is kept for the next one */
  output(bytes: Buffer): void {
    const text = this.decoder.write(bytes);
    if (text.length > 0) {
      this.line([this.seconds, 'o', text]);
    }
  }

  resize(cols: number, rows: number): void {
    this.line([this.seconds, 'r', `${cols}x${rows}`]);
  }

  /** ends the recording (an unfinished character at the end becomes U+FFFD) */
  finish(): void {
    const rest = this.decoder.end();
    if (rest.length > 0) {
      this.line([this.seconds, 'o', rest]);
    }
    this.flush();
    this.finished = true;
    this.stream.end();
  }
}
