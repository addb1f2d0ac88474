import { mkdir } from 'node:fs/promises';
import { messages } from '@outpost/contract/messages';
import type { StepContext, StepHandler, StepOutcome } from './context';
import { isWindows, runProgram, stepWorkingDirectory } from './context';
import { fetchVerified, writeScript } from './sources';

const PROBE_MARKER = 'outpost-powershell-ok';

/**
 * Whether powershell.exe really runs scripts: a stub (Wine's, or one left by a broken install)
 * exits 0 without running anything, which must not pass for a script that printed nothing.
 */
async function isPowerShellWorking(ctx: StepContext): Promise<boolean> {
  let output = '';
  const result = await ctx.runner({
    file: 'powershell.exe',
    args: ['-NoProfile', '-NonInteractive', '-Command', `Write-Output '${PROBE_MARKER}'`],
    cwd: ctx.workDir,
    timeoutMs: Math.min(ctx.timeoutMs, 60_000),
    signal: ctx.signal,
    onStdout: (text) => (output += text),
    onStderr: () => undefined,
  });
  return result.exitCode === 0 && output.includes(PROBE_MARKER);
}

// docs/product/packages.md#builder POWERSHELL — an inline script (written to a .ps1 in the step's scratch
// folder) or an uploaded .ps1, run with the chosen execution policy: powershell.exe on Windows,
// pwsh (PowerShell 7) elsewhere. On Windows, a powershell.exe that is missing, or that ends at
// once with no output and cannot run a probe either, fails the step (docs/agent-windows.md).
export const runPowerShellStep: StepHandler = async (details, ctx) => {
  const cwd = stepWorkingDirectory(ctx, details);
  await mkdir(cwd, { recursive: true });
  let script: string;
  if (details.script_type === 'file') {
    script = await fetchVerified(ctx, details.script_file, 'Script File');
  } else {
    // the BOM makes Windows PowerShell 5.1 read the script as UTF-8 rather than the ANSI code page
    const content = typeof details.script_content === 'string' ? details.script_content : '';
    script = await writeScript(ctx, 'script.ps1', `\uFEFF${content}`);
  }
  const policy = typeof details.execution_policy === 'string' ? details.execution_policy : 'Bypass';
  const isWin = isWindows(ctx);
  let hasOutput = false;
  const watched: StepContext = {
    ...ctx,
    stdout: (text) => ((hasOutput ||= text.length > 0), ctx.stdout(text)),
    stderr: (text) => ((hasOutput ||= text.length > 0), ctx.stderr(text)),
  };
  const outcome = await runProgram(watched, {
    file: isWin ? 'powershell.exe' : 'pwsh',
    args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', policy, '-File', script],
    cwd,
  });
  if (!isWin) {
    return outcome;
  }
  return checkedOnWindows(ctx, outcome, hasOutput);
};

async function checkedOnWindows(
  ctx: StepContext,
  outcome: StepOutcome,
  hasOutput: boolean,
): Promise<StepOutcome> {
  const unavailable: StepOutcome = {
    status: 'failed',
    exitCode: null,
    errorMessage: messages.powershellUnavailable,
  };
  if (outcome.status === 'failed' && outcome.errorMessage?.startsWith('Could not start powershell.exe')) {
    return unavailable;
  }
  if (outcome.status === 'completed' && !hasOutput && !(await isPowerShellWorking(ctx))) {
    return unavailable;
  }
  return outcome;
}
