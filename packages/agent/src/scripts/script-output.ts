import { SECRET_MASK, STDERR_MARK, outputCutMarker } from '@outpost/contract/script-runs';

// A script's output on its way to the server (docs/product/scripts.md#runs): each stream's secret
// values masked (a value split across two chunks too), stdout and stderr merged line by line in
// the order they arrived with stderr lines marked, and the whole kept to its first and last
// halves with a marker saying how much was left out between them.

/**
 * Masks secret values in one stream. The end of a chunk that could be the start of a secret waits
 * for the next chunk, so a value printed across two chunks is still found whole; anything else
 * passes on at once (the order of the two streams is kept).
 */
export class SecretMasker {
  private held = '';
  private readonly secrets: string[];

  constructor(secrets: readonly string[]) {
    this.secrets = secrets.filter((s) => s.length > 0).sort((a, b) => b.length - a.length);
  }

  private mask(text: string): string {
    let out = text;
    for (const s of this.secrets) {
      out = out.split(s).join(SECRET_MASK);
    }
    return out;
  }

  /** The length of the longest end of `text` that begins some secret (and is shorter than it). */
  private pendingLength(text: string): number {
    let best = 0;
    for (const s of this.secrets) {
      for (let n = Math.min(s.length - 1, text.length); n > best; n--) {
        if (text.endsWith(s.slice(0, n))) {
          best = n;
          break;
        }
      }
    }
    return best;
  }

  /** What can be passed on now. */
  push(chunk: string): string {
    if (this.secrets.length === 0) {
      return chunk;
    }
    const text = this.mask(this.held + chunk);
    const cut = text.length - this.pendingLength(text);
    this.held = text.slice(cut);
    return text.slice(0, cut);
  }

  /** What is left at the end. */
  end(): string {
    const rest = this.mask(this.held);
    this.held = '';
    return rest;
  }
}

/** Lines longer than this are passed on in pieces. */
const MAX_LINE_CHARS = 8 * 1024;

/**
 * stdout and stderr as one text: whole lines in the order they arrived, stderr's marked. A part
 * line waits for its end (or the stream's end, or MAX_LINE_CHARS).
 */
export class MergedLines {
  private partial = { stdout: '', stderr: '' };

  constructor(private readonly emit: (text: string) => void) {}

  push(stream: 'stdout' | 'stderr', chunk: string): void {
    let text = this.partial[stream] + chunk;
    let out = '';
    let nl = text.indexOf('\n');
    while (nl >= 0) {
      out += this.line(stream, text.slice(0, nl + 1));
      text = text.slice(nl + 1);
      nl = text.indexOf('\n');
    }
    while (text.length >= MAX_LINE_CHARS) {
      out += this.line(stream, `${text.slice(0, MAX_LINE_CHARS)}\n`);
      text = text.slice(MAX_LINE_CHARS);
    }
    this.partial[stream] = text;
    if (out !== '') {
      this.emit(out);
    }
  }

  private line(stream: 'stdout' | 'stderr', line: string): string {
    return stream === 'stderr' ? `${STDERR_MARK}${line}` : line;
  }

  end(): void {
    for (const stream of ['stdout', 'stderr'] as const) {
      if (this.partial[stream] !== '') {
        this.emit(this.line(stream, `${this.partial[stream]}\n`));
        this.partial[stream] = '';
      }
    }
  }
}

/**
 * The output kept: the first `maxBytes / 2` bytes pass on at once; after them only the last
 * `maxBytes / 2` are kept, passed on at the end behind the "… N bytes left out …" marker.
 */
export class HeadAndTail {
  private headBytes = 0;
  private tail: string[] = [];
  private tailBytes = 0;
  private leftOut = 0;
  private readonly half: number;

  constructor(
    maxBytes: number,
    private readonly emit: (text: string) => void,
  ) {
    this.half = Math.floor(maxBytes / 2);
  }

  push(text: string): void {
    if (this.headBytes < this.half) {
      const bytes = Buffer.byteLength(text);
      if (this.headBytes + bytes <= this.half) {
        this.headBytes += bytes;
        this.emit(text);
        return;
      }
      const room = this.half - this.headBytes;
      const head = Buffer.from(text)
        .subarray(0, room)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
      this.headBytes = this.half;
      this.emit(head);
      text = text.slice(head.length);
    }
    this.tail.push(text);
    this.tailBytes += Buffer.byteLength(text);
    while (this.tailBytes > this.half && this.tail.length > 0) {
      const over = this.tailBytes - this.half;
      const first = this.tail[0]!;
      const firstBytes = Buffer.byteLength(first);
      if (firstBytes <= over) {
        this.tail.shift();
        this.tailBytes -= firstBytes;
        this.leftOut += firstBytes;
      } else {
        const rest = Buffer.from(first)
          .subarray(over)
          .toString('utf8')
          .replace(/^\uFFFD/, '');
        const dropped = firstBytes - Buffer.byteLength(rest);
        this.tail[0] = rest;
        this.tailBytes -= dropped;
        this.leftOut += dropped;
      }
    }
  }

  /** Passes on the kept tail, behind the marker when something was left out. */
  end(): void {
    const tail = this.tail.join('');
    this.tail = [];
    this.tailBytes = 0;
    if (this.leftOut > 0) {
      this.emit(`\n${outputCutMarker(this.leftOut)}\n`);
    }
    if (tail !== '') {
      this.emit(tail);
    }
  }

  get bytesLeftOut(): number {
    return this.leftOut;
  }
}
