import { describe, expect, it } from 'vitest';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import {
  installPs1,
  installSh,
  powershellInstallCommand,
  scriptOrigin,
  shellInstallCommand,
} from './install-scripts';

const release = (platform: AgentRelease['platform'], sha: string): AgentRelease => ({
  platform,
  os_type: platform === 'win-x64' ? 'windows' : platform === 'linux-x64' ? 'linux' : 'macos',
  version: '1.2.3',
  sha256: sha.repeat(64),
  size: 10,
  node: 'v24.11.1',
  file_name: 'x',
  url: `/api/agent/releases/${platform}`,
  published_at: '2026-01-01T00:00:00.000Z',
});

describe('scriptOrigin', () => {
  it('keeps a plain http(s) origin, with port or IPv6 address', () => {
    expect(scriptOrigin('https', 'outpost.example.com')).toBe('https://outpost.example.com');
    expect(scriptOrigin('http', '10.0.0.5:3000')).toBe('http://10.0.0.5:3000');
    expect(scriptOrigin('http', '[::1]:3000')).toBe('http://[::1]:3000');
    expect(scriptOrigin('https', 'Outpost.Example.COM:443')).toBe('https://outpost.example.com');
  });

  it('refuses hosts that would need quoting in a script', () => {
    for (const host of ["a';rm -rf /;'", 'a b', 'a"b', 'a$(id)', 'a`id`', 'a\\b', '']) {
      expect(scriptOrigin('http', host), host).toBeNull();
    }
  });
});

describe('install.ps1', () => {
  const script = installPs1('https://outpost.example.com:8443', [
    release('linux-x64', 'a'),
    release('win-x64', 'b'),
  ]);
  const lines = script.split('\n');

  it('opens with its param block, so the scriptblock form binds -Token', () => {
    const firstCode = lines.find((l) => l.trim() !== '' && !l.startsWith('#'));
    expect(firstCode).toBe('param(');
    expect(script).toContain('[string]$Token = $env:OUTPOST_ENROLL_TOKEN,');
    expect(script).toContain('[switch]$NoService');
  });

  it('has the server, the Windows build’s sha256 and version written in, single-quoted', () => {
    expect(script).toContain("$OutpostServer = 'https://outpost.example.com:8443'");
    expect(script).toContain(`$ExpectedSha256 = '${'b'.repeat(64)}'`);
    expect(script).toContain("$ExpectedVersion = '1.2.3'");
    expect(script).not.toContain('a'.repeat(64));
    expect(script).toContain('Get-FileHash -Algorithm SHA256');
  });

  it('installs the service with the server and token; -NoService only enrols; exit codes checked', () => {
    expect(script).toContain('& $Target install --server $OutpostServer --token $Token');
    expect(script).toContain("@('enroll', '--server', $OutpostServer, '--token', $Token)");
    expect(script.indexOf('if (-not $NoService)', script.indexOf('Move-Item'))).toBeLessThan(
      script.indexOf("@('enroll'"),
    );
    expect(script).toContain('if ($Code -ne 0) { throw');
    expect(script).toContain('if ($LASTEXITCODE -ne 0) { throw "Enrolment failed');
  });

  it('says so when no Windows build is published', () => {
    const none = installPs1('http://h', [release('linux-x64', 'a')]);
    expect(none).toContain("$ExpectedSha256 = ''");
    expect(none).toContain('No agent executable for $Platform is published on $OutpostServer');
    // a customer runs it: no build commands or server settings
    expect(none).toContain('Ask whoever administers your Outpost server to publish one');
    expect(none).not.toMatch(/npm run|AGENT_RELEASES_DIR/);
  });

  it('never asks for the token in its URL', () => {
    expect(powershellInstallCommand('http://h')).toBe(
      '& ([scriptblock]::Create((irm http://h/api/agent/install.ps1))) -Token TOKEN',
    );
    expect(script).toContain(powershellInstallCommand('https://outpost.example.com:8443'));
  });
});

describe('install.sh', () => {
  it('knows the Linux and macOS builds only', () => {
    const script = installSh('http://h', [
      release('linux-x64', 'a'),
      release('win-x64', 'b'),
      release('darwin-arm64', 'c'),
    ]);
    expect(script).toContain(
      `linux-x64) expected_sha256='${'a'.repeat(64)}'; expected_version='1.2.3'; has_xz=0; has_gz=0 ;;`,
    );
    expect(script).toContain(`darwin-arm64) expected_sha256='${'c'.repeat(64)}'`);
    expect(script).not.toContain('b'.repeat(64));
    expect(script).toContain(shellInstallCommand('http://h'));
  });
});
