import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentRemoteMessage } from '@outpost/contract/agent-protocol';
import { FLUSH_BYTES, FLUSH_MS, MAX_FRAME_BYTES, TerminalSession } from './terminal-session';
import type { PtyProcess } from './terminal-session';

// docs/agent.md "Remote access": output coalesced and bounded to the session's rate by pausing
// the pseudo-terminal (nothing lost), input written as it is, idle and length limits.

const ID = '3f1c2a4e-5b6d-4e7f-8a9b-0c1d2e3f4a5b';

function fakePty() {
  let data: (d: string | Buffer) => void = () => undefined;
  let exit: (e: { exitCode: number }) => void = () => undefined;
  const pty = {
    pid: 42,
    written: [] as string[],
    paused: false,
    pauses: 0,
    killed: false,
    size: [80, 24] as [number, number],
    onData: (l: (d: string | Buffer) => void) => {
      data = l;
    },
    onExit: (l: (e: { exitCode: number }) => void) => {
      exit = l;
    },
    write(d: string) {
      pty.written.push(d);
    },
    resize(c: number, r: number) {
      pty.size = [c, r];
    },
    pause() {
      pty.paused = true;
      pty.pauses += 1;
    },
    resume() {
      pty.paused = false;
    },
    kill() {
      pty.killed = true;
    },
    emit: (d: string | Buffer) => data(d),
    exit: (code: number) => exit({ exitCode: code }),
  };
  return pty satisfies PtyProcess & Record<string, unknown>;
}

function setup(limits = { idleTimeoutSeconds: 60, maxSeconds: 600, maxBytesPerSecond: 1_000_000 }) {
  const pty = fakePty();
  const sent: AgentRemoteMessage[] = [];
  const ended: string[] = [];
  const session = new TerminalSession(
    ID,
    pty,
    limits,
    (m) => sent.push(m),
    (s) => ended.push(s.sessionId),
  );
  const output = () =>
    sent
      .filter((m) => m.type === 'terminal_output')
      .map((m) => Buffer.from((m as { data: string }).data, 'base64').toString());
  return { pty, sent, session, output, ended };
}

describe('a terminal session', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('coalesces small writes into one frame after FLUSH_MS, numbered from 1', () => {
    const { pty, sent, output } = setup();
    pty.emit('a');
    pty.emit(Buffer.from('b'));
    pty.emit('c');
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(FLUSH_MS);
    expect(output()).toEqual(['abc']);
    expect(sent[0]).toMatchObject({ type: 'terminal_output', sessionId: ID, seq: 1 });
    pty.emit('d');
    vi.advanceTimersByTime(FLUSH_MS);
    expect(sent.map((m) => (m as { seq: number }).seq)).toEqual([1, 2]);
  });

  it('sends at once when FLUSH_BYTES wait, in frames no larger than MAX_FRAME_BYTES', () => {
    const { pty, sent } = setup();
    pty.emit('x'.repeat(FLUSH_BYTES));
    expect(sent).toHaveLength(1);
    pty.emit('y'.repeat(MAX_FRAME_BYTES * 2 + 10));
    const sizes = sent.map((m) => Buffer.from((m as { data: string }).data, 'base64').length);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(MAX_FRAME_BYTES);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(FLUSH_BYTES + MAX_FRAME_BYTES * 2 + 10);
  });

  it('bounds output to the rate by pausing the pseudo-terminal, and loses nothing', () => {
    const rate = 20_000;
    const { pty, output } = setup({ idleTimeoutSeconds: 600, maxSeconds: 600, maxBytesPerSecond: rate });
    const text = 'z'.repeat(100_000);
    pty.emit(text);
    expect(pty.paused).toBe(true);
    const firstSecond = output().join('').length;
    expect(firstSecond).toBeLessThanOrEqual(rate);
    vi.advanceTimersByTime(1000);
    expect(output().join('').length).toBeLessThanOrEqual(rate * 2 + 1);
    vi.advanceTimersByTime(10_000);
    expect(output().join('')).toBe(text);
    expect(pty.paused).toBe(false);
    expect(pty.pauses).toBeGreaterThan(0);
  });

  it('writes input as it is and follows resizes', () => {
    const { pty, session } = setup();
    session.input(Buffer.from('rm -rf /tmp/x; echo $HOME\r'));
    session.resize(120, 40);
    expect(pty.written).toEqual(['rm -rf /tmp/x; echo $HOME\r']);
    expect(pty.size).toEqual([120, 40]);
  });

  it('ends after the idle timeout without input, and kills the shell', () => {
    const { pty, sent, session, ended } = setup({
      idleTimeoutSeconds: 30,
      maxSeconds: 600,
      maxBytesPerSecond: 1e6,
    });
    vi.advanceTimersByTime(20_000);
    session.input(Buffer.from('x'));
    vi.advanceTimersByTime(20_000);
    expect(session.isEnded).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(session.isEnded).toBe(true);
    expect(sent.at(-1)).toMatchObject({ type: 'terminal_exit', reason: 'idle' });
    expect(pty.killed).toBe(true);
    expect(ended).toEqual([ID]);
  });

  it('ends at the longest session allowed, however busy', () => {
    const { pty, sent, session } = setup({ idleTimeoutSeconds: 60, maxSeconds: 90, maxBytesPerSecond: 1e6 });
    for (let i = 0; i < 8; i += 1) {
      vi.advanceTimersByTime(10_000);
      session.input(Buffer.from('x'));
    }
    expect(session.isEnded).toBe(false);
    vi.advanceTimersByTime(10_000);
    expect(sent.at(-1)).toMatchObject({ type: 'terminal_exit', reason: 'max_length' });
    expect(pty.killed).toBe(true);
  });

  it('sends what the shell wrote before it exited, then the exit with its code', () => {
    const { pty, sent, output } = setup();
    pty.emit('bye\r\n');
    pty.exit(3);
    expect(output()).toEqual(['bye\r\n']);
    expect(sent.at(-1)).toMatchObject({ type: 'terminal_exit', reason: 'exited', exitCode: 3 });
    expect(pty.killed).toBe(false);
  });

  it('a close ends it once', () => {
    const { sent, session } = setup();
    session.close('closed');
    session.close('idle');
    expect(sent.filter((m) => m.type === 'terminal_exit')).toEqual([
      expect.objectContaining({ reason: 'closed' }),
    ]);
  });
});
