import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { ProgressStream, head } from './progress';

// The clock is vitest's: the coalescing interval is followed step by step, not measured.

let now = 0;
let sent: StepProgressMessage[];
let stream: ProgressStream;

beforeEach(() => {
  vi.useFakeTimers();
  now = 0;
  sent = [];
  stream = new ProgressStream('cmd-1', (m) => sent.push(m), { intervalMs: 500, now: () => now });
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (ms: number) => {
  now += ms;
  vi.advanceTimersByTime(ms);
};
const start = (attempt = 1) =>
  stream.report({ stepOrder: 1, status: 'running', attempt, startedAt: '2026-01-01T00:00:00.000Z' });
const out = (stdout: string, attempt = 1) =>
  stream.report({ stepOrder: 1, status: 'running', attempt, stdout });
const err = (stderr: string, attempt = 1) =>
  stream.report({ stepOrder: 1, status: 'running', attempt, stderr });
const end = (status: 'completed' | 'failed', attempt = 1) =>
  stream.report({
    stepOrder: 1,
    status,
    attempt,
    exitCode: status === 'completed' ? 0 : 1,
    errorMessage: null,
  });

describe('step progress messages', () => {
  it('are numbered 1, 2, 3 … per command, valid for the protocol', () => {
    start();
    out('hello\n');
    advance(0);
    end('completed');
    expect(sent.map((m) => m.seq)).toEqual([1, 2, 3]);
    for (const m of sent) {
      expect(StepProgressMessage.parse(m)).toEqual(m);
      expect(m.commandId).toBe('cmd-1');
    }
    expect(new Set(sent.map((m) => m.messageId)).size).toBe(3);
  });

  it('coalesce output to one message per step per interval, stdout and stderr together', () => {
    start();
    out('a\n');
    advance(0); // the first output goes at once
    for (let i = 0; i < 20; i++) {
      out(`line ${i}\n`);
      err(`warn ${i}\n`);
      advance(20);
    }
    // 400 ms after the first message: the rest still waits
    expect(sent).toHaveLength(2);
    advance(100);
    expect(sent).toHaveLength(3);
    expect(sent[2]!.stdout).toBe(Array.from({ length: 20 }, (_, i) => `line ${i}\n`).join(''));
    expect(sent[2]!.stderr).toBe(Array.from({ length: 20 }, (_, i) => `warn ${i}\n`).join(''));
    expect(sent[2]).toMatchObject({ stepOrder: 1, status: 'running', attempt: 1 });
  });

  it('send the output waiting before a status report, and never hold a status report back', () => {
    start();
    out('first\n');
    advance(0);
    out('last words\n');
    end('failed');
    start(2);
    end('completed', 2);
    expect(sent.map((m) => [m.seq, m.status, m.attempt, m.stdout ?? null])).toEqual([
      [1, 'running', 1, null],
      [2, 'running', 1, 'first\n'],
      [3, 'running', 1, 'last words\n'],
      [4, 'failed', 1, null],
      [5, 'running', 2, null],
      [6, 'completed', 2, null],
    ]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('split output longer than the protocol allows per message', () => {
    const small = new ProgressStream('cmd-2', (m) => sent.push(m), { maxChars: 10, now: () => now });
    small.report({ stepOrder: 2, status: 'running', attempt: 1, stdout: 'x'.repeat(25) });
    small.report({ stepOrder: 2, status: 'running', attempt: 1, stderr: 'y'.repeat(12) });
    small.close();
    expect(sent.map((m) => [m.stdout ?? '', m.stderr ?? ''])).toEqual([
      ['x'.repeat(10), 'y'.repeat(10)],
      ['x'.repeat(10), 'yy'],
      ['xxxxx', ''],
    ]);
  });

  it('drop NUL characters (UTF-16 output) and never cut a character in half', () => {
    out('h\u0000i\u0000\n');
    stream.close();
    expect(sent[0]!.stdout).toBe('hi\n');
    expect(head('ab😀', 3)).toBe('ab');
    expect(head('ab😀', 4)).toBe('ab😀');
  });

  it('send nothing more once abandoned (the agent is stopping)', () => {
    start();
    out('pending\n');
    stream.abandon();
    advance(1000);
    end('completed');
    expect(sent).toHaveLength(1);
  });
});
