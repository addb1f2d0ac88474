import { mkdir } from 'node:fs/promises';
import { DEFAULT_SUCCESS_EXIT_CODES } from '@outpost/contract/step-catalog';
import type { StepHandler } from './context';
import {
  isWindows,
  parseExitCodes,
  runProgram,
  splitArguments,
  stepWorkingDirectory,
  windowsInvocation,
} from './context';
import { resolveSource } from './sources';

// docs/product/packages.md#builder EXE — the uploaded file or a URL download, run with its arguments. The
// program is written, verified and made executable through one descriptor in the attempt's
// private folder, and run from there (SECURITY.md "The agent's file-handling rules").
export const runExeStep: StepHandler = async (details, ctx) => {
  const program = await resolveSource(
    ctx,
    details,
    'Installer File',
    isWindows(ctx) ? 'setup.exe' : 'setup',
    !isWindows(ctx),
    // a download named without an extension (…/download/latest) cannot run on Windows
    isWindows(ctx) ? ['.exe', '.bat', '.cmd', '.com'] : undefined,
  );
  const cwd = stepWorkingDirectory(ctx, details);
  await mkdir(cwd, { recursive: true });
  const successCodes = parseExitCodes(details.success_exit_codes, DEFAULT_SUCCESS_EXIT_CODES);
  const raw = typeof details.arguments === 'string' ? details.arguments.trim() : '';
  if (isWindows(ctx)) {
    // Windows programs parse their own command line; installers (/S, /v"/qn …") expect it as typed
    return runProgram(ctx, { ...windowsInvocation(program, raw), cwd }, successCodes);
  }
  return runProgram(ctx, { file: program, args: splitArguments(raw), cwd }, successCodes);
};
