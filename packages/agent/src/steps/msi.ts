import path from 'node:path';
import { DEFAULT_SUCCESS_EXIT_CODES } from '@outpost/contract/step-catalog';
import type { StepHandler } from './context';
import { isWindows, parseExitCodes, runProgram, windowsOnly } from './context';
import { resolveSource } from './sources';

const UI_FLAGS: Record<string, string> = { none: '/qn', basic: '/qb', reduced: '/qr', full: '/qf' };

// docs/product/packages.md#builder MSI — msiexec /i with the UI level and public properties. /norestart:
// the package reports 3010 ("reboot required") instead of restarting the device mid-deployment.
export const runMsiStep: StepHandler = async (details, ctx) => {
  if (!isWindows(ctx)) {
    throw windowsOnly('An MSI step');
  }
  const msi = await resolveSource(ctx, details, 'MSI File', 'package.msi', false, ['.msi']);
  const ui = UI_FLAGS[typeof details.ui_level === 'string' ? details.ui_level : 'none'] ?? '/qn';
  const properties = typeof details.properties === 'string' ? details.properties.trim() : '';
  // msiexec reads PROPERTY="a b" itself, so the properties go through verbatim
  const args = ['/i', `"${msi}"`, ui, '/norestart', ...(properties === '' ? [] : [properties])];
  return runProgram(
    ctx,
    { file: 'msiexec.exe', args, cwd: path.dirname(msi), windowsVerbatimArguments: true },
    parseExitCodes(details.success_exit_codes, DEFAULT_SUCCESS_EXIT_CODES),
  );
};
