import { describe, expect, it } from 'vitest';
import { cn } from './cn';

describe('cn', () => {
  it('skips falsy parts and lets a later Tailwind class override a conflicting one', () => {
    expect(cn('px-2', false, null, undefined, 'py-1')).toBe('px-2 py-1');
    expect(cn('block w-full h-9', 'w-40')).toBe('block h-9 w-40');
    expect(cn('hidden lg:inline-flex', 'inline-flex')).toBe('lg:inline-flex inline-flex');
  });
});
