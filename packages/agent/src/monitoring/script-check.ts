import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { CheckConfig } from '@outpost/contract/checks';
import { CHECK_OUTPUT_MAX } from '@outpost/contract/checks';
import { spawnRunner } from '../steps/process-runner';
import type { ProcessRunner } from '../steps/process-runner';
import { scriptState } from './evaluators';
import type { CheckEvaluation } from './monitor';

// A script check (docs/product/monitoring.md#checks): the script is written to a file of its own
// and run with the named shell; exit code 0 is passing, 1 warning, anything else (or no answer
// within its timeout, when its whole process tree is killed) failing. Its output is the check's.

type ScriptConfig = Extract<CheckConfig, { type: 'script' }>;

const EXTENSION: Record<ScriptConfig['shell'], string> = {
  powershell: '.ps1',
  cmd: '.cmd',
  sh: '.sh',
  bash: '.sh',
};

/** The program and arguments that run a script file with its shell. */
export function shellInvocation(
  shell: ScriptConfig['shell'],
  file: string,
): { file: string; args: string[]; windowsVerbatimArguments?: boolean } {
  switch (shell) {
    case 'powershell':
      return {
        file: 'powershell.exe',
        args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', 'Bypass', '-File', file],
      };
    case 'cmd':
      return {
        file: 'cmd.exe',
        args: ['/d', '/s', '/c', `"call "${file}""`],
        windowsVerbatimArguments: true,
      };
    case 'sh':
      return { file: 'sh', args: [file] };
    case 'bash':
      return { file: 'bash', args: [file] };
  }
}

/** Keeps the first CHECK_OUTPUT_MAX characters a script prints (stdout and stderr together). */
function cappedText() {
  let text = '';
  let isCut = false;
  return {
    add: (chunk: string) => {
      if (text.length < CHECK_OUTPUT_MAX) {
        text += chunk;
      }
      if (text.length > CHECK_OUTPUT_MAX) {
        text = text.slice(0, CHECK_OUTPUT_MAX);
        isCut = true;
      }
    },
    value: () => (isCut ? `${text.slice(0, CHECK_OUTPUT_MAX - 3).trimEnd()}...` : text.trim()),
  };
}

export async function scriptEvaluation(
  config: ScriptConfig,
  options: { runner?: ProcessRunner; workDir?: string; signal?: AbortSignal } = {},
): Promise<CheckEvaluation> {
  const runner = options.runner ?? spawnRunner;
  const dir = await mkdtemp(path.join(options.workDir ?? os.tmpdir(), 'outpost-check-'));
  try {
    const file = path.join(dir, `check${EXTENSION[config.shell]}`);
    // cmd reads its files in the console's code page: CRLF line ends, as a .cmd written on Windows
    const body = config.shell === 'cmd' ? config.script.replace(/\r?\n/g, '\r\n') : config.script;
    await writeFile(file, body, { mode: 0o700 });
    const output = cappedText();
    const timeoutMs = config.timeout_seconds * 1000;
    const result = await runner({
      ...shellInvocation(config.shell, file),
      cwd: dir,
      timeoutMs,
      signal: options.signal,
      onStdout: output.add,
      onStderr: output.add,
    });
    const printed = output.value();
    if (result.timedOut || result.cancelled) {
      const why = `The script did not finish within ${config.timeout_seconds} s and was stopped`;
      return { state: 'failing', output: printed ? `${why}\n${printed}` : why };
    }
    if (result.spawnError !== undefined) {
      return { state: 'failing', output: `${config.shell} could not start: ${result.spawnError}` };
    }
    return {
      state: scriptState(result.exitCode),
      output: printed || `The script exited with code ${result.exitCode ?? 'none'}`,
    };
  } finally {
    await rm(dir, { recursive: true, force: true }).catch(() => undefined);
  }
}
