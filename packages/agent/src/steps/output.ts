// stdout and stderr of a step: kept up to a cap (with a note saying so) and streamed in chunks
// while the step runs, so the portal's step log fills live without a message per line.

export type OutputLimits = {
  /** bytes kept per stream and attempt */
  maxBytes: number;
  /** a chunk is sent when this many characters wait … */
  chunkChars: number;
  /** … or when this long has passed since the first of them arrived */
  flushIntervalMs: number;
};

export const DEFAULT_OUTPUT_LIMITS: OutputLimits = {
  maxBytes: 1024 * 1024,
  // well under the protocol's 65,536 characters per stdout/stderr field
  chunkChars: 16 * 1024,
  flushIntervalMs: 500,
};

export const truncationNote = (maxBytes: number) =>
  `\n[Outpost: output truncated after ${formatBytes(maxBytes)}]\n`;

function formatBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) {
    return `${bytes / (1024 * 1024)} MiB`;
  }
  if (bytes % 1024 === 0) {
    return `${bytes / 1024} KiB`;
  }
  return `${bytes} bytes`;
}

/** One stream of one attempt. `emit` receives chunks in order; `text` is what was kept. */
export class CappedOutput {
  private kept = '';
  private keptBytes = 0;
  private pending = '';
  private isTruncated = false;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly limits: OutputLimits,
    private readonly emit: (chunk: string) => void,
  ) {}

  get text(): string {
    return this.kept;
  }

  push(text: string): void {
    if (this.isTruncated || text === '') {
      return;
    }
    const bytes = Buffer.byteLength(text);
    let accepted = text;
    if (this.keptBytes + bytes > this.limits.maxBytes) {
      const room = this.limits.maxBytes - this.keptBytes;
      // cut on a byte boundary, then drop a half character the cut may have left
      accepted = Buffer.from(text)
        .subarray(0, room)
        .toString('utf8')
        .replace(/\uFFFD$/, '');
      accepted += truncationNote(this.limits.maxBytes);
      this.isTruncated = true;
    }
    this.kept += accepted;
    this.keptBytes += Buffer.byteLength(accepted);
    this.pending += accepted;
    if (this.pending.length >= this.limits.chunkChars || this.isTruncated) {
      this.flush();
    } else {
      this.timer ??= setTimeout(() => this.flush(), this.limits.flushIntervalMs);
    }
  }

  /** Sends what waits, in chunks the protocol accepts. */
  flush(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    while (this.pending.length > 0) {
      const chunk = this.pending.slice(0, this.limits.chunkChars);
      this.pending = this.pending.slice(chunk.length);
      this.emit(chunk);
    }
  }
}
