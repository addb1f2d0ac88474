import { mkdir } from 'node:fs/promises';
import type { StepHandler } from './context';
import { isWindows, runProgram, stepWorkingDirectory } from './context';
import { fetchVerified, writeScript } from './sources';

// spec: operations §2.3 POWERSHELL — an inline script (written to a .ps1 in the step's scratch
// folder) or an uploaded .ps1, run with the chosen execution policy: powershell.exe on Windows,
// pwsh (PowerShell 7) elsewhere.
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
  return runProgram(ctx, {
    file: isWindows(ctx) ? 'powershell.exe' : 'pwsh',
    args: ['-NoProfile', '-NonInteractive', '-ExecutionPolicy', policy, '-File', script],
    cwd,
  });
};
