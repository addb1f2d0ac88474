import { describe, expect, it } from 'vitest';
import { architectureOf } from './system';

describe('architectureOf', () => {
  it('names the architectures packages are built for as Outpost does', () => {
    expect(architectureOf('x64')).toBe('x64');
    expect(architectureOf('ia32')).toBe('x86');
    expect(architectureOf('arm64')).toBe('arm64');
  });

  it('reports null for an architecture no package can name', () => {
    for (const arch of ['arm', 'ppc64', 's390x', 'riscv64', 'loong64', 'constructor', '']) {
      expect(architectureOf(arch)).toBeNull();
    }
  });

  it('reports this machine by default', () => {
    expect(architectureOf()).toBe(architectureOf(process.arch));
  });
});
