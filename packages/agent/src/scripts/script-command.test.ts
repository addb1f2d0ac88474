import { describe, expect, it } from 'vitest';
import { scriptCommandLine, scriptEnv, scriptFileName, unsupportedOn } from './script-command';

describe('script command lines', () => {
  it('runs PowerShell on Windows as powershell.exe without profile, non-interactive, policy bypassed, on the file', () => {
    expect(scriptCommandLine('powershell', 'C:\\Outpost\\work\\s\\script.ps1', 'win32')).toEqual({
      file: 'powershell.exe',
      args: [
        '-NoProfile',
        '-NonInteractive',
        '-ExecutionPolicy',
        'Bypass',
        '-File',
        'C:\\Outpost\\work\\s\\script.ps1',
      ],
    });
  });

  it('runs PowerShell elsewhere as pwsh with the same arguments', () => {
    expect(scriptCommandLine('powershell', '/var/lib/outpost/work/script.ps1', 'linux').file).toBe('pwsh');
  });

  it('runs cmd as cmd.exe /d /c on the quoted .cmd file, arguments kept as written', () => {
    const line = scriptCommandLine('cmd', 'C:\\Program Files\\Outpost\\work\\script.cmd', 'win32');
    expect(line).toEqual({
      file: 'cmd.exe',
      args: ['/d', '/c', '"C:\\Program Files\\Outpost\\work\\script.cmd"'],
      windowsVerbatimArguments: true,
    });
    expect(scriptFileName('cmd')).toBe('script.cmd');
  });

  it('runs python as python on Windows and python3 elsewhere', () => {
    expect(scriptCommandLine('python', 'x.py', 'win32').file).toBe('python');
    expect(scriptCommandLine('python', 'x.py', 'darwin').file).toBe('python3');
  });

  it('runs the POSIX shells on the file', () => {
    expect(scriptCommandLine('bash', '/w/script.sh', 'linux')).toEqual({
      file: 'bash',
      args: ['/w/script.sh'],
    });
    expect(scriptCommandLine('sh', '/w/script.sh', 'linux')).toEqual({
      file: '/bin/sh',
      args: ['/w/script.sh'],
    });
    expect(scriptCommandLine('zsh', '/w/script.zsh', 'darwin')).toEqual({
      file: 'zsh',
      args: ['/w/script.zsh'],
    });
  });

  it('refuses cmd off Windows and the POSIX shells on Windows', () => {
    expect(unsupportedOn('cmd', 'linux')).toMatch(/only on Windows/);
    expect(unsupportedOn('bash', 'win32')).toMatch(/do not run on Windows/);
    expect(unsupportedOn('python', 'win32')).toBeNull();
  });

  it('passes parameters only as OUTPOST_ variables, names upper-cased', () => {
    expect(scriptEnv({ target: '$(rm -rf /)' }, { apiKey: 's3cret' })).toEqual({
      OUTPOST_TARGET: '$(rm -rf /)',
      OUTPOST_APIKEY: 's3cret',
    });
  });
});
