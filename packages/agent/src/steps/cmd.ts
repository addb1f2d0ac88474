import { mkdir } from 'node:fs/promises';
import type { StepHandler } from './context';
import { isWindows, runProgram, stepWorkingDirectory } from './context';

// docs/product/packages.md#builder CMD — a command line through the platform shell. run_as_admin: the agent
// already runs elevated (SYSTEM or root), so there is nothing more to raise. With
// wait_for_completion off the command is started and left running; the next step starts at once.
export const runCmdStep: StepHandler = async (details, ctx) => {
  const command = typeof details.command === 'string' ? details.command : '';
  const cwd = stepWorkingDirectory(ctx, details);
  await mkdir(cwd, { recursive: true });
  const isBackground = details.wait_for_completion === false;
  if (isWindows(ctx)) {
    // as Node's own `shell: true` does: /d skips AutoRun, /s with the outer quotes keeps the
    // command line exactly as typed
    return runProgram(ctx, {
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', `"${command}"`],
      cwd,
      windowsVerbatimArguments: true,
      isBackground,
    });
  }
  return runProgram(ctx, { file: '/bin/sh', args: ['-c', command], cwd, isBackground });
};
