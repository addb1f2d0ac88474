import { describe, expect, it } from 'vitest';
import { HelloMessage, InventoryMessage } from './agent-protocol';
import { deviceArchitecture, deviceRunsArchitecture } from './targets';

describe('deviceRunsArchitecture', () => {
  // [device OS, device architecture, package architecture, runs]
  const cases: [string, string, 'x64' | 'x86' | 'arm64', boolean][] = [
    ['windows', 'x86', 'x86', true],
    ['windows', 'x86', 'x64', false],
    ['windows', 'x86', 'arm64', false],
    ['windows', 'x64', 'x86', true],
    ['windows', 'x64', 'x64', true],
    ['windows', 'x64', 'arm64', false],
    ['windows', 'arm64', 'x86', true],
    ['windows', 'arm64', 'x64', true],
    ['windows', 'arm64', 'arm64', true],
    ['linux', 'x86', 'x86', true],
    ['linux', 'x86', 'x64', false],
    ['linux', 'x64', 'x86', true],
    ['linux', 'x64', 'x64', true],
    ['linux', 'x64', 'arm64', false],
    ['linux', 'arm64', 'x64', false],
    ['linux', 'arm64', 'x86', false],
    ['linux', 'arm64', 'arm64', true],
    ['macos', 'arm64', 'x64', false],
    ['macos', 'arm64', 'arm64', true],
  ];
  it.each(cases)('a %s %s device runs an %s package: %s', (os, arch, pkg, runs) => {
    expect(deviceRunsArchitecture(os, arch, pkg)).toBe(runs);
  });

  it('lets a device that reports no known architecture (an older agent) match every package', () => {
    for (const arch of [null, undefined, '', 'riscv64', 'constructor']) {
      expect(deviceRunsArchitecture('linux', arch, 'arm64')).toBe(true);
      expect(deviceRunsArchitecture('windows', arch, 'x64')).toBe(true);
    }
  });

  it('reads the reported architecture case-insensitively', () => {
    expect(deviceArchitecture(' ARM64 ')).toBe('arm64');
    expect(deviceRunsArchitecture('Linux', 'ARM64', 'x64')).toBe(false);
  });
});

describe('the reported architecture in the agent protocol', () => {
  const hello = {
    type: 'hello',
    protocolVersion: 1,
    agentVersion: '1',
    hostname: 'h',
    osType: 'linux',
    osVersion: 'x',
  };
  it('is optional and nullable, and at most 16 characters', () => {
    expect(HelloMessage.safeParse(hello).success).toBe(true);
    expect(HelloMessage.safeParse({ ...hello, architecture: null }).success).toBe(true);
    expect(HelloMessage.parse({ ...hello, architecture: 'arm64' }).architecture).toBe('arm64');
    expect(HelloMessage.safeParse({ ...hello, architecture: 'x'.repeat(17) }).success).toBe(false);
    const inv = { type: 'inventory', messageId: 'm', collectedAt: 'now', facts: { architecture: 'x64' } };
    expect(InventoryMessage.parse(inv).facts?.architecture).toBe('x64');
  });
});
