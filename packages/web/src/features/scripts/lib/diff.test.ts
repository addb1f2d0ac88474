import { describe, expect, it } from 'vitest';
import type { ScriptVersionDetail } from '@outpost/contract/scripts';
import { fieldChanges, lineDiff } from './diff';

const kinds = (before: string, after: string) =>
  lineDiff(before, after).map((l) => `${l.kind[0]}${l.oldNo ?? '-'}/${l.newNo ?? '-'} ${l.text}`);

describe('lineDiff', () => {
  it('keeps equal bodies as one run of unchanged lines', () => {
    expect(kinds('a\nb', 'a\nb')).toEqual(['s1/1 a', 's2/2 b']);
  });

  it('aligns an insertion, a removal and a change with their line numbers', () => {
    expect(kinds('one\ntwo\nthree\nfour', 'one\n2\nthree\nfour\nfive')).toEqual([
      's1/1 one',
      'r2/- two',
      'a-/2 2',
      's3/3 three',
      's4/4 four',
      'a-/5 five',
    ]);
  });

  it('treats CRLF and LF line ends alike', () => {
    expect(lineDiff('a\r\nb', 'a\nb').every((l) => l.kind === 'same')).toBe(true);
  });

  it('finds the longest common subsequence in the middle', () => {
    const out = lineDiff('x\na\nb\nc\ny', 'x\nb\nc\na\ny');
    expect(out.filter((l) => l.kind === 'same').map((l) => l.text)).toEqual(['x', 'b', 'c', 'y']);
  });
});

const version = (patch: Partial<ScriptVersionDetail>): ScriptVersionDetail => ({
  version: 1,
  created_at: '2026-11-27T10:00:00Z',
  created_by_name: null,
  change_note: null,
  name: 'Disk',
  description: '',
  category: '',
  language: 'bash',
  os: 'linux',
  body: 'df',
  timeout_seconds: 300,
  params: [],
  ...patch,
});
const param = {
  label: '',
  required: false,
  default: null,
  has_default: false,
  options: [],
  min: null,
  max: null,
  pattern: null,
};

describe('fieldChanges', () => {
  it('lists changed fields and parameters, never a secret value', () => {
    const a = version({ params: [{ ...param, name: 'key', type: 'secret', has_default: true }] });
    const b = version({
      name: 'Disk usage',
      timeout_seconds: 60,
      params: [
        { ...param, name: 'key', type: 'secret', has_default: false },
        { ...param, name: 'n', type: 'number', default: '2', min: 1, max: 5 },
      ],
    });
    expect(fieldChanges(a, b)).toEqual([
      { field: 'Name', before: 'Disk', after: 'Disk usage' },
      { field: 'Timeout (seconds)', before: '300', after: '60' },
      { field: 'Parameter key', before: 'secret, saved value', after: 'secret, no saved value' },
      { field: 'Parameter n', before: '(none)', after: 'number, default "2", range 1–5' },
    ]);
  });
});
