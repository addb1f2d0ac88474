import { afterEach, describe, expect, it, vi } from 'vitest';
import { AsciicastWriter, FLUSH_CHARS, FLUSH_MS } from './asciicast';

// docs/decisions/2026-11-27-remote-terminal.md: asciicast v2, streamed.

async function read(writer: AsciicastWriter): Promise<unknown[]> {
  const chunks: Buffer[] = [];
  writer.stream.on('data', (c: Buffer) => chunks.push(c));
  await new Promise((r) => writer.stream.on('end', r));
  return Buffer.concat(chunks)
    .toString('utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as unknown);
}

describe('the asciicast writer', () => {
  it('writes the header, output and resize events with their times, and keeps split characters whole', async () => {
    let now = 1_000_000;
    const w = new AsciicastWriter(
      {
        width: 80,
        height: 24,
        timestamp: 1000,
        title: 'pc — Ada',
        env: { TERM: 'xterm-256color', SHELL: 'bash' },
      },
      () => now,
    );
    const lines = read(w);
    const euro = Buffer.from('€', 'utf8');
    now += 250;
    w.output(Buffer.concat([Buffer.from('price: '), euro.subarray(0, 1)]));
    now += 250;
    w.output(euro.subarray(1));
    w.resize(100, 30);
    now += 1000;
    w.output(Buffer.from('\x1b[1mbold\x1b[0m\r\n'));
    w.finish();
    w.output(Buffer.from('after the end'));
    expect(await lines).toEqual([
      {
        version: 2,
        width: 80,
        height: 24,
        timestamp: 1000,
        title: 'pc — Ada',
        env: { TERM: 'xterm-256color', SHELL: 'bash' },
      },
      [0.25, 'o', 'price: '],
      [0.5, 'o', '€'],
      [0.5, 'r', '100x30'],
      [1.5, 'o', '\x1b[1mbold\x1b[0m\r\n'],
    ]);
  });

  describe('writing in pieces', () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    const header = {
      width: 80,
      height: 24,
      timestamp: 1000,
      title: 'pc',
      env: { TERM: 'xterm-256color', SHELL: 'bash' },
    };

    it('gathers lines and writes them once the oldest is FLUSH_MS old', () => {
      vi.useFakeTimers();
      const w = new AsciicastWriter(header, () => 0);
      const writes: string[] = [];
      w.stream.on('data', (c: Buffer) => writes.push(c.toString('utf8')));
      w.output(Buffer.from('one\r\n'));
      w.output(Buffer.from('two\r\n'));
      vi.advanceTimersByTime(FLUSH_MS - 1);
      expect(writes).toEqual([]);
      vi.advanceTimersByTime(1);
      expect(writes).toHaveLength(1);
      expect(writes[0]!.trim().split('\n')).toHaveLength(3); // the header and both lines, one write
      w.finish();
    });

    it('writes at once when a piece reaches FLUSH_CHARS, and finish writes what is left', () => {
      vi.useFakeTimers();
      const w = new AsciicastWriter(header, () => 0);
      const writes: string[] = [];
      w.stream.on('data', (c: Buffer) => writes.push(c.toString('utf8')));
      w.output(Buffer.from('x'.repeat(FLUSH_CHARS)));
      expect(writes).toHaveLength(1);
      w.output(Buffer.from('tail'));
      expect(writes).toHaveLength(1);
      w.finish();
      expect(writes).toHaveLength(2);
      expect(writes[1]).toBe('[0,"o","tail"]\n');
    });
  });
});
