// Plays an asciicast v2 recording (docs/product/remote-access.md#recording-and-replay) into a
// writer (an xterm): output events at their times, scaled by the speed, long pauses shortened to
// MAX_GAP_SECONDS as asciinema does; pause and play resume where it stopped.

export type Cast = {
  width: number;
  height: number;
  /** [seconds, kind, data]: output text, or a resize "COLSxROWS" */
  events: [number, 'o' | 'r', string][];
  duration: number;
};

export const MAX_GAP_SECONDS = 2;

export function parseCast(text: string): Cast {
  const lines = text.split('\n').filter((l) => l.trim().length > 0);
  const header = JSON.parse(lines[0] ?? '{}') as { width?: number; height?: number };
  const events: Cast['events'] = [];
  let shift = 0;
  let last = 0;
  for (const line of lines.slice(1)) {
    const [t, kind, data] = JSON.parse(line) as [number, string, string];
    // long pauses are shortened
    const gap = t - shift - last;
    if (gap > MAX_GAP_SECONDS) {
      shift += gap - MAX_GAP_SECONDS;
    }
    last = t - shift;
    if (kind === 'o' || kind === 'r') {
      events.push([last, kind, data]);
    }
  }
  return { width: header.width ?? 80, height: header.height ?? 24, events, duration: last };
}

export class CastPlayer {
  private index = 0;
  private position = 0;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private startedAt = 0;
  private startedFrom = 0;

  constructor(
    readonly cast: Cast,
    private readonly write: (data: string) => void,
    /** the recorded terminal was resized */
    private readonly resize: (cols: number, rows: number) => void,
    private readonly onChange: (playing: boolean, position: number) => void,
    public speed = 1,
  ) {}

  get playing(): boolean {
    return this.timer !== null;
  }

  get at(): number {
    return this.playing
      ? this.startedFrom + ((Date.now() - this.startedAt) / 1000) * this.speed
      : this.position;
  }

  play(reset: () => void): void {
    if (this.playing) {
      return;
    }
    if (this.index >= this.cast.events.length) {
      reset();
      this.index = 0;
      this.position = 0;
    }
    this.startedAt = Date.now();
    this.startedFrom = this.position;
    this.schedule();
    this.onChange(true, this.position);
  }

  pause(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
      this.position = Math.min(this.at, this.cast.duration);
    }
    this.onChange(false, this.position);
  }

  setSpeed(speed: number): void {
    const wasPlaying = this.playing;
    if (wasPlaying) {
      this.pause();
    }
    this.speed = speed;
    if (wasPlaying) {
      this.startedAt = Date.now();
      this.startedFrom = this.position;
      this.schedule();
      this.onChange(true, this.position);
    }
  }

  stop(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = null;
    }
  }

  private schedule() {
    const next = this.cast.events[this.index];
    if (!next) {
      this.timer = null;
      this.position = this.cast.duration;
      this.onChange(false, this.position);
      return;
    }
    const wait = Math.max(0, ((next[0] - this.at) * 1000) / this.speed);
    this.timer = setTimeout(() => {
      // everything due by now, in one write
      let text = '';
      const now = this.at;
      while (this.index < this.cast.events.length && this.cast.events[this.index]![0] <= now + 0.001) {
        const [, kind, data] = this.cast.events[this.index]!;
        if (kind === 'o') {
          text += data;
        } else {
          // output before the resize is written at the old size
          this.write(text);
          text = '';
          const [cols, rows] = data.split('x').map(Number);
          if (cols && rows) {
            this.resize(cols, rows);
          }
        }
        this.index += 1;
      }
      this.write(text);
      this.position = now;
      this.onChange(true, now);
      this.schedule();
    }, wait);
  }
}
