import type { StepHandler } from './context';
import { StepError, isWindows, runProgram, windowsOnly } from './context';

const HIVE_SHORT: Record<string, string> = {
  HKEY_LOCAL_MACHINE: 'HKLM',
  HKEY_CURRENT_USER: 'HKCU',
  HKEY_USERS: 'HKU',
  HKEY_CLASSES_ROOT: 'HKCR',
  HKEY_CURRENT_CONFIG: 'HKCC',
};

/** The data as reg.exe wants it for the value type (the catalogue has checked the format). */
function regData(type: string, data: string): string {
  switch (type) {
    case 'REG_DWORD':
    case 'REG_QWORD':
      // 0x-prefixed hex is accepted by the portal; reg add wants decimal
      return BigInt(data.trim()).toString(10);
    case 'REG_BINARY':
      return data.replace(/[\s,]/g, '');
    case 'REG_MULTI_SZ':
      // one string per line; \0 is reg add's default separator
      return data
        .split(/\r?\n/)
        .filter((l) => l !== '')
        .join('\\0');
    default:
      return data;
  }
}

// docs/product/packages.md#builder REGISTRY — reg add with hive, key, value name (or the default value),
// type and data; /f overwrites without asking.
export const runRegistryStep: StepHandler = (details, ctx) => {
  if (!isWindows(ctx)) {
    return Promise.reject(windowsOnly('A registry step'));
  }
  const hive = HIVE_SHORT[typeof details.hive === 'string' ? details.hive : ''];
  if (hive === undefined) {
    return Promise.reject(new StepError(`Unknown registry hive: ${String(details.hive)}`, false));
  }
  const keyPath = (typeof details.key_path === 'string' ? details.key_path : '').replace(/^\\+|\\+$/g, '');
  const valueName = typeof details.value_name === 'string' ? details.value_name : '';
  const type = typeof details.value_type === 'string' ? details.value_type : 'REG_SZ';
  const data = typeof details.value_data === 'string' ? details.value_data : '';
  const args = [
    'add',
    `${hive}\\${keyPath}`,
    ...(valueName === '' ? ['/ve'] : ['/v', valueName]),
    '/t',
    type,
  ];
  if (data.trim() !== '') {
    args.push('/d', regData(type, data));
  }
  args.push('/f');
  return runProgram(ctx, { file: 'reg.exe', args, cwd: ctx.workDir });
};
