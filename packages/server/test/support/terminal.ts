import WebSocket from 'ws';
import type { TerminalServerMessage } from '@outpost/contract/terminal';

// The browser's side of a remote terminal (docs/product/remote-access.md#terminal) for tests and
// benchmarks: opens GET /api/customer/devices/{id}/terminal as a websocket, keeps every frame and
// the output bytes, and waits for text to appear. With `keepOutput: false` (a benchmark's streaming
// sessions) output frames are only counted, so the load generator does not grow with the run.

export type TerminalRefusal = { status: number; body: { error?: string; code?: string } };

export class TerminalClient {
  readonly frames: TerminalServerMessage[] = [];
  private chunks: Buffer[] = [];
  /** output bytes received (base64-decoded size), counted in either mode */
  outputBytes = 0;
  private listeners = new Set<() => void>();
  readonly closed: Promise<void>;

  private constructor(
    readonly ws: WebSocket,
    keepOutput: boolean,
  ) {
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as TerminalServerMessage;
      if (m.type === 'output') {
        this.outputBytes += Buffer.byteLength(m.data, 'base64');
        if (!keepOutput) {
          return;
        }
        this.chunks.push(Buffer.from(m.data, 'base64'));
      }
      this.frames.push(m);
      for (const l of [...this.listeners]) {
        l();
      }
    });
    this.closed = new Promise((resolve) => ws.once('close', () => resolve()));
    ws.once('close', () => {
      for (const l of [...this.listeners]) {
        l();
      }
    });
  }

  /** Opens a terminal; rejects with the HTTP refusal when the server refuses the upgrade. */
  static open(
    url: string,
    deviceId: number,
    token: string,
    q: { shell?: string; cols?: number; rows?: number; keepOutput?: boolean } = {},
  ): Promise<TerminalClient> {
    const params = new URLSearchParams({
      token,
      shell: q.shell ?? 'default',
      cols: String(q.cols ?? 80),
      rows: String(q.rows ?? 24),
    });
    const ws = new WebSocket(
      `${url.replace(/^http/, 'ws')}/api/customer/devices/${deviceId}/terminal?${params.toString()}`,
    );
    return new Promise((resolve, reject) => {
      const client = new TerminalClient(ws, q.keepOutput ?? true);
      ws.once('open', () => resolve(client));
      ws.once('unexpected-response', (_req, res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString('utf8')));
        res.on('end', () => {
          const refusal: TerminalRefusal = { status: res.statusCode ?? 0, body: safeJson(text) };
          reject(Object.assign(new Error(`refused ${refusal.status}: ${text}`), refusal));
        });
      });
      ws.once('error', reject);
    });
  }

  /** every output byte so far */
  get bytes(): Buffer {
    return Buffer.concat(this.chunks);
  }

  get text(): string {
    return new TextDecoder().decode(this.bytes);
  }

  get ended(): Extract<TerminalServerMessage, { type: 'ended' }> | undefined {
    return this.frames.find(
      (f): f is Extract<TerminalServerMessage, { type: 'ended' }> => f.type === 'ended',
    );
  }

  type(data: string): void {
    this.ws.send(JSON.stringify({ type: 'input', data }));
  }

  resize(cols: number, rows: number): void {
    this.ws.send(JSON.stringify({ type: 'resize', cols, rows }));
  }

  close(): void {
    this.ws.send(JSON.stringify({ type: 'close' }));
  }

  /** resolves once `test` holds, checked after each frame */
  until<T>(test: () => T | undefined | null | false, timeoutMs = 15_000, what = 'terminal'): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const v = test();
        if (v) {
          done();
          resolve(v);
        }
      };
      const timer = setTimeout(() => {
        done();
        reject(
          new Error(
            `timed out waiting for ${what}; output: ${JSON.stringify(this.text.slice(-1500))}; frames: ${JSON.stringify(this.frames.filter((f) => f.type !== 'output'))}`,
          ),
        );
      }, timeoutMs);
      const done = () => {
        clearTimeout(timer);
        this.listeners.delete(check);
      };
      this.listeners.add(check);
      check();
    });
  }

  /** waits for `text` in the output after `from` (a byte offset into the output) */
  waitForText(text: string | RegExp, from = 0, timeoutMs = 15_000): Promise<string> {
    return this.until(
      () => {
        const out = new TextDecoder().decode(this.bytes.subarray(from));
        return (typeof text === 'string' ? out.includes(text) : text.test(out)) ? out : null;
      },
      timeoutMs,
      String(text),
    );
  }

  waitForEnd(timeoutMs = 15_000) {
    return this.until(() => this.ended, timeoutMs, 'the end of the session');
  }
}

function safeJson(text: string): { error?: string; code?: string } {
  try {
    return JSON.parse(text) as { error?: string; code?: string };
  } catch {
    return { error: text };
  }
}
