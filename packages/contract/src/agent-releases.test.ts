import { describe, expect, it } from 'vitest';
import { UpdateAgentCommand } from './agent-protocol';
import type { AgentRelease } from './agent-releases';
import {
  agentFileName,
  compareVersions,
  isAgentOutdated,
  platformOf,
  targetVersionFor,
} from './agent-releases';

const release = (platform: AgentRelease['platform'], version: string): AgentRelease => ({
  platform,
  os_type: platform === 'win-x64' ? 'windows' : platform === 'linux-x64' ? 'linux' : 'macos',
  version,
  sha256: 'a'.repeat(64),
  size: 1,
  node: 'v24',
  file_name: agentFileName(platform),
  url: `/api/agent/releases/${platform}`,
  published_at: '',
});

describe('agent versions and releases', () => {
  it('compares semantic versions numerically, a pre-release before its release', () => {
    expect(compareVersions('1.0.10', '1.0.9')).toBeGreaterThan(0);
    expect(compareVersions('1.2.0', '1.10.0')).toBeLessThan(0);
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0);
    expect(compareVersions('1.0.0-rc.1', '1.0.0')).toBeLessThan(0);
    expect(compareVersions('1.0.0-rc.2', '1.0.0-rc.10')).toBeLessThan(0);
    expect(compareVersions('1.0.0-alpha', '1.0.0-alpha.1')).toBeLessThan(0);
    expect(compareVersions('1.0.0+build.5', '1.0.0')).toBe(0);
    expect(compareVersions('latest', '1.0.0')).toBeNull();
  });

  it('names the executable and the platform of a process as the build script does', () => {
    expect(agentFileName('win-x64')).toBe('outpost-agent-win-x64.exe');
    expect(agentFileName('linux-x64')).toBe('outpost-agent-linux-x64');
    expect(platformOf('win32', 'x64')).toBe('win-x64');
    expect(platformOf('darwin', 'arm64')).toBe('darwin-arm64');
    expect(platformOf('linux', 'arm64')).toBeNull();
  });

  it('calls an agent outdated only against a release for its own OS', () => {
    const releases = [release('linux-x64', '1.1.0'), release('win-x64', '1.0.0')];
    expect(isAgentOutdated('1.0.0', 'linux', releases)).toBe(true);
    expect(isAgentOutdated('1.0.0', 'windows', releases)).toBe(false);
    expect(isAgentOutdated('1.2.0', 'linux', releases)).toBe(false);
    expect(isAgentOutdated('1.0.0', 'macos', releases)).toBe(false);
    expect(isAgentOutdated(null, 'linux', releases)).toBe(false);
    expect(isAgentOutdated('1.0.0-test', 'Linux', releases)).toBe(true);
  });

  it('targets the oldest macOS build, so no agent is told to update to a build for another architecture', () => {
    const releases = [release('darwin-arm64', '1.2.0'), release('darwin-x64', '1.1.0')];
    expect(targetVersionFor('macos', releases)).toBe('1.1.0');
    expect(isAgentOutdated('1.1.0', 'macos', releases)).toBe(false);
  });

  it('lets an update_agent command name only a path on the agent’s own server', () => {
    const command = (url: string) => ({
      kind: 'update_agent',
      version: '1.0.1',
      builds: [{ platform: 'linux-x64', version: '1.0.1', sha256: 'a'.repeat(64), size: 1, url }],
    });
    expect(UpdateAgentCommand.safeParse(command('/api/agent/releases/linux-x64')).success).toBe(true);
    for (const url of ['//evil.example/x', 'https://evil.example/x', '/api/../x?y', '/other/x']) {
      expect(UpdateAgentCommand.safeParse(command(url)).success, url).toBe(false);
    }
  });

  it('lets a build’s compressed forms name only ?encoding= on a path of the agent’s own server', () => {
    const build = (extra: object) => ({
      kind: 'update_agent',
      version: '1.0.1',
      builds: [
        { platform: 'linux-x64', version: '1.0.1', sha256: 'a'.repeat(64), size: 1, url: '/api/a', ...extra },
      ],
    });
    const ok = (extra: object) => UpdateAgentCommand.safeParse(build(extra)).success;
    expect(ok({ br: { url: '/api/agent/releases/linux-x64?encoding=br', size: 1 } })).toBe(true);
    expect(ok({ xz: { url: '/api/agent/releases/linux-x64?encoding=xz', size: 1 } })).toBe(true);
    expect(ok({ br: { url: '/api/agent/releases/linux-x64?encoding=xz', size: 1 } })).toBe(false);
    for (const url of ['//evil.example/api?encoding=br', 'https://evil.example/api/x?encoding=br']) {
      expect(ok({ br: { url, size: 1 } }), url).toBe(false);
    }
    expect(ok({ signer_sha256: 'b'.repeat(64) })).toBe(true);
    expect(ok({ signer_sha256: 'not hex' })).toBe(false);
  });
});
