import { describe, expect, it } from 'vitest';
import { NOT_ON_WINDOWS, WINDOWS_SHELL_ONLY, sessionEnv, shellCommand } from './terminal-shell';

// docs/agent.md "Remote access": the program each shell choice runs, per platform.

const winEnv = {
  SystemRoot: 'C:\\Windows',
  ComSpec: 'C:\\Windows\\system32\\cmd.exe',
  OUTPOST_AGENT_DRY_RUN: '1',
};
const winUser = { shell: null, homedir: 'C:\\Users\\ada' };

describe('shell command lines', () => {
  it('Windows: PowerShell without its logo by default, cmd when chosen, in a ConPTY', () => {
    expect(shellCommand('default', 'win32', winEnv, winUser)).toMatchObject({
      file: 'C:\\Windows\\System32\\WindowsPowerShell\\v1.0\\powershell.exe',
      args: ['-NoLogo'],
      cwd: 'C:\\Users\\ada',
    });
    expect(shellCommand('powershell', 'win32', winEnv, winUser).args).toEqual(['-NoLogo']);
    expect(shellCommand('cmd', 'win32', winEnv, winUser)).toMatchObject({
      file: 'C:\\Windows\\system32\\cmd.exe',
      args: [],
    });
    expect(shellCommand('cmd', 'win32', {}, winUser).file).toBe('C:\\Windows\\System32\\cmd.exe');
    expect(() => shellCommand('bash', 'win32', winEnv, winUser)).toThrow(NOT_ON_WINDOWS);
  });

  it('Linux and macOS: the login shell of the user, or the one chosen, as a login shell', () => {
    const user = { shell: '/bin/zsh', homedir: '/home/ada' };
    expect(shellCommand('default', 'linux', {}, user)).toMatchObject({
      file: '/bin/zsh',
      args: ['-l'],
      cwd: '/home/ada',
    });
    expect(shellCommand('bash', 'darwin', {}, user)).toMatchObject({ file: 'bash', args: ['-l'] });
    expect(
      shellCommand('default', 'linux', { SHELL: '/bin/bash' }, { shell: '/usr/sbin/nologin', homedir: '/' })
        .file,
    ).toBe('/bin/bash');
    expect(() => shellCommand('powershell', 'linux', {}, user)).toThrow(WINDOWS_SHELL_ONLY);
    expect(() => shellCommand('cmd', 'darwin', {}, user)).toThrow(WINDOWS_SHELL_ONLY);
  });

  it('the environment: the agent’s own settings left out, an xterm terminal', () => {
    const env = sessionEnv({ PATH: '/usr/bin', OUTPOST_AGENT_SECRET_FILE: '/x', TERM: 'dumb' });
    expect(env).toEqual({ PATH: '/usr/bin', TERM: 'xterm-256color', COLORTERM: 'truecolor' });
    expect(shellCommand('default', 'win32', winEnv, winUser).env.OUTPOST_AGENT_DRY_RUN).toBeUndefined();
  });
});
