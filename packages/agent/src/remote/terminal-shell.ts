import os from 'node:os';
import type { TerminalShell } from '@outpost/contract/agent-protocol';

// The program a terminal session runs (docs/agent.md "Remote access"): on Windows PowerShell
// (the default) or cmd in a ConPTY; elsewhere the login shell of the agent's user, or bash, zsh or
// sh as chosen, started as a login shell. The environment is the agent's without its own
// OUTPOST_* settings, with TERM=xterm-256color; the session starts in the user's home folder.

export type ShellCommand = { file: string; args: string[]; cwd: string; env: Record<string, string> };

export class ShellUnavailable extends Error {}

export const WINDOWS_SHELL_ONLY = 'PowerShell and cmd are only on Windows devices';
export const NOT_ON_WINDOWS = 'bash, zsh and sh are not Windows shells: choose PowerShell or cmd';

export function shellCommand(
  shell: TerminalShell,
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  user: { shell: string | null; homedir: string } = userInfo(),
): ShellCommand {
  const base = sessionEnv(env);
  if (platform === 'win32') {
    const cwd = user.homedir || env.USERPROFILE || 'C:\\';
    const root = env.SystemRoot ?? 'C:\\Windows';
    switch (shell) {
      case 'default':
      case 'powershell':
        return {
          file: `${root}\\System32\\WindowsPowerShell\\v1.0\\powershell.exe`,
          args: ['-NoLogo'],
          cwd,
          env: base,
        };
      case 'cmd':
        return { file: env.ComSpec ?? `${root}\\System32\\cmd.exe`, args: [], cwd, env: base };
      case 'bash':
      case 'zsh':
      case 'sh':
        throw new ShellUnavailable(NOT_ON_WINDOWS);
    }
  }
  const cwd = user.homedir || env.HOME || '/';
  switch (shell) {
    case 'powershell':
    case 'cmd':
      throw new ShellUnavailable(WINDOWS_SHELL_ONLY);
    case 'default': {
      const file =
        user.shell && !user.shell.endsWith('/nologin') && !user.shell.endsWith('/false')
          ? user.shell
          : (env.SHELL ?? '/bin/sh');
      return { file, args: ['-l'], cwd, env: base };
    }
    case 'bash':
    case 'zsh':
    case 'sh':
      return { file: shell, args: ['-l'], cwd, env: base };
  }
}

/** The agent's environment without its own settings (OUTPOST_*), for an interactive terminal. */
export function sessionEnv(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) {
    if (v !== undefined && !k.startsWith('OUTPOST_')) {
      out[k] = v;
    }
  }
  out.TERM = 'xterm-256color';
  out.COLORTERM = 'truecolor';
  return out;
}

function userInfo(): { shell: string | null; homedir: string } {
  try {
    const u = os.userInfo();
    return { shell: u.shell, homedir: u.homedir };
  } catch {
    return { shell: null, homedir: os.homedir() };
  }
}
