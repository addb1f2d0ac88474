import { describe, expect, it } from 'vitest';
import { outputLines, STDERR_MARK } from '@outpost/contract/script-runs';
import { HeadAndTail, MergedLines, SecretMasker } from './script-output';

describe('SecretMasker', () => {
  it('masks a secret inside one chunk', () => {
    const m = new SecretMasker(['hunter2']);
    expect(m.push('password=hunter2\n') + m.end()).toBe('password=••••\n');
  });

  it('masks a secret split across two chunks', () => {
    const m = new SecretMasker(['hunter2']);
    const out = m.push('pass=hun') + m.push('ter2 ok\n') + m.end();
    expect(out).toBe('pass=•••• ok\n');
    expect(out).not.toContain('hun');
  });

  it('masks the longer of two overlapping secrets whole', () => {
    const m = new SecretMasker(['abc', 'abcdef']);
    expect(m.push('x abcdef y abc') + m.end()).toBe('x •••• y ••••');
  });

  it('holds back only an end that could begin a secret', () => {
    const m = new SecretMasker(['hunter2']);
    expect(m.push('oops\n')).toBe('oops\n');
    expect(m.push('a hu')).toBe('a ');
    expect(m.push('mbug')).toBe('humbug');
  });

  it('passes text through unchanged without secrets', () => {
    const m = new SecretMasker([]);
    expect(m.push('plain')).toBe('plain');
  });
});

describe('MergedLines', () => {
  it('keeps whole lines in arrival order and marks stderr lines', () => {
    const out: string[] = [];
    const merged = new MergedLines((t) => out.push(t));
    merged.push('stdout', 'one\ntw');
    merged.push('stderr', 'oops\n');
    merged.push('stdout', 'o\n');
    merged.end();
    expect(outputLines(out.join(''))).toEqual([
      { stream: 'stdout', text: 'one' },
      { stream: 'stderr', text: 'oops' },
      { stream: 'stdout', text: 'two' },
    ]);
  });

  it('ends a last line without a newline', () => {
    const out: string[] = [];
    const merged = new MergedLines((t) => out.push(t));
    merged.push('stderr', 'no newline');
    merged.end();
    expect(out.join('')).toBe(`${STDERR_MARK}no newline\n`);
  });
});

describe('HeadAndTail', () => {
  it('keeps the first and last halves with a marker saying how much was left out', () => {
    const out: string[] = [];
    const bounded = new HeadAndTail(20, (t) => out.push(t));
    bounded.push('0123456789'); // the head
    bounded.push('abcdefghij'); // left out, then
    bounded.push('ABCDEFGHIJ'); // the tail
    bounded.end();
    expect(out.join('')).toBe('0123456789\n… 10 bytes left out …\nABCDEFGHIJ');
    expect(bounded.bytesLeftOut).toBe(10);
  });

  it('passes short output through whole', () => {
    const out: string[] = [];
    const bounded = new HeadAndTail(100, (t) => out.push(t));
    bounded.push('short\n');
    bounded.end();
    expect(out.join('')).toBe('short\n');
  });
});
