import { describe, expect, it } from 'vitest';
import { bearerToken } from './bearer';

describe('bearerToken', () => {
  it('reads the token of a Bearer header, trimmed', () => {
    expect(bearerToken('Bearer abc.def')).toBe('abc.def');
    expect(bearerToken('Bearer   abc  ')).toBe('abc');
  });

  it('answers empty for no header, no token or another scheme', () => {
    expect(bearerToken(undefined)).toBe('');
    expect(bearerToken('Bearer ')).toBe('');
    expect(bearerToken('Bearer    ')).toBe('');
    expect(bearerToken('Basic dXNlcjpwYXNz')).toBe('');
    expect(bearerToken('bearer abc')).toBe('');
    expect(bearerToken('Bearerabc')).toBe('');
  });
});
