import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';

// The recording of a terminal session (docs/decisions/2026-11-27-remote-terminal.md): asciicast
// v2, one JSON header line, then one line per event: `[seconds, "o", text]` for output and
// `[seconds, "r", "COLSxROWS"]` for a resize. Typed input is not recorded (passwords). The lines
// stream into the blob store as they happen; nothing holds the whole recording.

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

  constructor(
    header: AsciicastHeader,
    private readonly now: () => number = Date.now,
  ) {
    this.startedAt = now();
    this.line({ version: 2, ...header });
  }

  private line(value: unknown) {
    if (!this.finished) {
      this.stream.write(`${JSON.stringify(value)}\n`);
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
    this.finished = true;
    this.stream.end();
  }
}
