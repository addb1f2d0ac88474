import type { RunScriptCommand } from '@outpost/contract/agent-protocol';
import { paramEnvName } from '@outpost/contract/scripts';

// How a script of the library runs on a device (docs/agent.md "Scripts"): its body in a file of
// the agent's private work folder, the language's interpreter on that file, parameters only as
// environment variables OUTPOST_<NAME> (never spliced into the script's text, never evaluated).

export type ScriptLanguage = RunScriptCommand['language'];

export type ScriptCommandLine = {
  file: string;
  args: string[];
  /** Windows: the arguments exactly as written (cmd.exe's own quoting) */
  windowsVerbatimArguments?: boolean;
};

/** The script file's name: the extension its interpreter expects. */
export function scriptFileName(language: ScriptLanguage): string {
  const ext: Record<ScriptLanguage, string> = {
    bash: 'sh',
    sh: 'sh',
    zsh: 'zsh',
    python: 'py',
    powershell: 'ps1',
    cmd: 'cmd',
  };
  return `script.${ext[language]}`;
}

/** Why a language cannot run on this platform, or null. */
export function unsupportedOn(language: ScriptLanguage, platform: NodeJS.Platform): string | null {
  if (language === 'cmd' && platform !== 'win32') {
    return 'Command Prompt (cmd) scripts run only on Windows';
  }
  if ((language === 'bash' || language === 'sh' || language === 'zsh') && platform === 'win32') {
    return `${language} scripts do not run on Windows`;
  }
  return null;
}

/** The interpreter and its arguments for the script file `path`. */
export function scriptCommandLine(
  language: ScriptLanguage,
  path: string,
  platform: NodeJS.Platform,
): ScriptCommandLine {
  const isWin = platform === 'win32';
  switch (language) {
    case 'bash':
      return { file: 'bash', args: [path] };
    case 'sh':
      return { file: '/bin/sh', args: [path] };
    case 'zsh':
      return { file: 'zsh', args: [path] };
    case 'python':
      return { file: isWin ? 'python' : 'python3', args: [path] };
    case 'powershell':
      return {
        file: isWin ? 'powershell.exe' : 'pwsh',
        args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', path],
      };
    case 'cmd':
      // /d skips AutoRun; the quoted path is kept as written (a folder with spaces)
      return { file: 'cmd.exe', args: ['/d', '/c', `"${path}"`], windowsVerbatimArguments: true };
  }
}

/** The script's own environment variables: each parameter (secrets too) as OUTPOST_<NAME>. */
export function scriptEnv(
  params: Record<string, string>,
  secrets: Record<string, string>,
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ ...params, ...secrets })) {
    env[paramEnvName(name)] = value;
  }
  return env;
}

/** The words of a device's result when the interpreter is not there. */
export const interpreterMissing = (file: string, why: string) =>
  `The interpreter ${file} was not found on this device (${why})`;
