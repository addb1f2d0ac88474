import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StepProgressMessage } from '@outpost/contract/agent-protocol';
import { ProgressStream, head } from './progress';

// The clock is vitest's: the coalescing window and interval are followed step by step, not measured.

let now = 0;
let sent: StepProgressMessage[];
let stream: ProgressStream;

beforeEach(() => {
  vi.useFakeTimers();
  now = 0;
  sent = [];
  stream = new ProgressStream('cmd-1', (m) => sent.push(m), {
    intervalMs: 500,
    windowMs: 100,
    now: () => now,
  });
});
afterEach(() => {
  vi.useRealTimers();
});

const advance = (ms: number) => {
  now += ms;
  vi.advanceTimersByTime(ms);
};
const START = '2026-01-01T00:00:00.000Z';
const END = '2026-01-01T00:00:01.000Z';
const start = (attempt = 1, stepOrder = 1) =>
  stream.report({ stepOrder, status: 'running', attempt, startedAt: START });
const out = (stdout: string, attempt = 1, stepOrder = 1) =>
  stream.report({ stepOrder, status: 'running', attempt, stdout });
const err = (stderr: string, attempt = 1) =>
  stream.report({ stepOrder: 1, status: 'running', attempt, stderr });
const end = (status: 'completed' | 'failed', attempt = 1, stepOrder = 1) =>
  stream.report({
    stepOrder,
    status,
    attempt,
    exitCode: status === 'completed' ? 0 : 1,
    errorMessage: status === 'completed' ? null : 'exit code 1',
    startedAt: START,
    completedAt: END,
  });
const shape = (m: StepProgressMessage) => [m.seq, m.stepOrder, m.attempt, m.status, m.stdout ?? null];

describe('step progress messages', () => {
  it('are numbered 1, 2, 3 … per command, valid for the protocol, one per attempt that ends at once', () => {
    for (const stepOrder of [1, 2, 3]) {
      start(1, stepOrder);
      out(`step ${stepOrder}\n`, 1, stepOrder);
      end('completed', 1, stepOrder);
    }
    expect(sent).toEqual([]); // the window is still open
    advance(100);
    expect(sent.map(shape)).toEqual([
      [1, 1, 1, 'completed', 'step 1\n'],
      [2, 2, 1, 'completed', 'step 2\n'],
      [3, 3, 1, 'completed', 'step 3\n'],
    ]);
    for (const m of sent) {
      expect(StepProgressMessage.parse(m)).toEqual(m);
      expect(m).toMatchObject({ commandId: 'cmd-1', startedAt: START, completedAt: END, exitCode: 0 });
    }
    expect(new Set(sent.map((m) => m.messageId)).size).toBe(3);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('show a long step starting within the window, then stream its output at most once per interval', () => {
    start();
    advance(100);
    expect(sent.map(shape)).toEqual([[1, 1, 1, 'running', null]]);
    expect(sent[0]!.startedAt).toBe(START);
    for (let i = 0; i < 50; i++) {
      out(`line ${i}\n`);
      err(`warn ${i}\n`);
      advance(20);
    }
    // 1,000 ms of output after the start: one message at 500 ms, one at 1,000 ms
    expect(sent.map((m) => m.seq)).toEqual([1, 2, 3]);
    expect(sent.slice(1).map((m) => m.status)).toEqual(['running', 'running']);
    const printed = sent.map((m) => m.stdout ?? '').join('');
    expect(printed).toBe(Array.from({ length: 50 }, (_, i) => `line ${i}\n`).join(''));
    expect(sent[1]!.stderr).toContain('warn 0\n');
  });

  it('carry the output still waiting in the final status, and keep the attempts in order', () => {
    start();
    advance(100);
    out('last words\n');
    end('failed');
    start(2);
    end('completed', 2);
    advance(100);
    expect(sent.map(shape)).toEqual([
      [1, 1, 1, 'running', null],
      [2, 1, 1, 'failed', 'last words\n'],
      [3, 1, 2, 'completed', null],
    ]);
    expect(sent[1]).toMatchObject({ exitCode: 1, errorMessage: 'exit code 1', completedAt: END });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('send a status report at once with no window (each report its own message)', () => {
    const direct = new ProgressStream('cmd-3', (m) => sent.push(m), { windowMs: 0, now: () => now });
    direct.report({ stepOrder: 1, status: 'running', attempt: 1, startedAt: START });
    direct.report({ stepOrder: 1, status: 'completed', attempt: 1, exitCode: 0, completedAt: END });
    direct.report({ stepOrder: 2, status: 'cancelled', errorMessage: 'Not run: an earlier step failed' });
    expect(sent.map((m) => [m.seq, m.stepOrder, m.status])).toEqual([
      [1, 1, 'running'],
      [2, 1, 'completed'],
      [3, 2, 'cancelled'],
    ]);
  });

  it('send everything still waiting on close, in order', () => {
    start();
    out('a\n');
    stream.report({ stepOrder: 2, status: 'cancelled', errorMessage: 'Deployment cancelled' });
    stream.close();
    expect(sent.map((m) => [m.seq, m.stepOrder, m.status, m.stdout ?? null])).toEqual([
      [1, 1, 'running', 'a\n'],
      [2, 2, 'cancelled', null],
    ]);
    end('completed');
    advance(1000);
    expect(sent).toHaveLength(2);
  });

  it('split output longer than the protocol allows per message, the status last', () => {
    const small = new ProgressStream('cmd-2', (m) => sent.push(m), { maxChars: 10, now: () => now });
    small.report({ stepOrder: 2, status: 'running', attempt: 1, startedAt: START });
    small.report({ stepOrder: 2, status: 'running', attempt: 1, stdout: 'x'.repeat(25) });
    small.report({ stepOrder: 2, status: 'running', attempt: 1, stderr: 'y'.repeat(12) });
    small.report({ stepOrder: 2, status: 'completed', attempt: 1, exitCode: 0, completedAt: END });
    small.close();
    expect(sent.map((m) => [m.status, m.stdout ?? '', m.stderr ?? ''])).toEqual([
      ['running', 'x'.repeat(10), 'y'.repeat(10)],
      ['running', 'x'.repeat(10), 'yy'],
      ['completed', 'xxxxx', ''],
    ]);
    expect(sent.map((m) => m.startedAt)).toEqual([START, START, START]);
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
    advance(100);
    out('pending\n');
    stream.abandon();
    advance(1000);
    end('completed');
    expect(sent).toHaveLength(1);
    expect(vi.getTimerCount()).toBe(0);
  });
});
