import type { ConditionProbes } from '../steps/conditions';
import type { VirtualDevice } from './virtual-device';

// The answers a simulated machine gives to step conditions (docs/product/rollouts.md#step-conditions,
// "On simulated devices"): its own facts and sessions; a file system of the usual system folders
// and a folder per installed program; a registry holding only Windows' CurrentVersion key; a
// process list of the usual system processes (the desktop shell only while someone is logged in).

type SimDevice = Pick<VirtualDevice, 'facts' | 'software' | 'sessions'>;

const WINDOWS_ENV = {
  SystemDrive: 'C:',
  SystemRoot: 'C:\\Windows',
  windir: 'C:\\Windows',
  ProgramFiles: 'C:\\Program Files',
  'ProgramFiles(x86)': 'C:\\Program Files (x86)',
  ProgramData: 'C:\\ProgramData',
  TEMP: 'C:\\Windows\\Temp',
  TMP: 'C:\\Windows\\Temp',
};
const MAC_ENV = { HOME: '/var/root', TMPDIR: '/tmp' };

/** Folders that exist on every simulated machine, with everything under them. */
const WINDOWS_TREES = ['c:\\windows', 'c:\\programdata\\microsoft'];
const WINDOWS_FOLDERS = [
  'c:\\',
  'c:\\program files',
  'c:\\program files (x86)',
  'c:\\programdata',
  'c:\\users',
];
const MAC_TREES = ['/system', '/usr', '/bin', '/sbin', '/etc', '/library'];
const MAC_FOLDERS = ['/', '/applications', '/users', '/tmp', '/var'];

const WINDOWS_PROCESSES = [
  'System',
  'smss.exe',
  'csrss.exe',
  'wininit.exe',
  'services.exe',
  'lsass.exe',
  'svchost.exe',
  'winlogon.exe',
  'spoolsv.exe',
  'outpost-agent.exe',
];
const MAC_PROCESSES = ['launchd', 'kernel_task', 'WindowServer', 'loginwindow', 'outpost-agent'];

const CURRENT_VERSION_KEY = 'software\\microsoft\\windows nt\\currentversion';

const isUnder = (path: string, tree: string, sep: string) =>
  path === tree || path.startsWith(tree.endsWith(sep) ? tree : tree + sep);

export function simulatedConditionProbes(
  device: SimDevice | null,
  platform: NodeJS.Platform,
): ConditionProbes {
  const isWindows = platform === 'win32';
  const programs = (device?.software ?? []).map((s) => s.name);
  return {
    platform,
    env: isWindows ? WINDOWS_ENV : MAC_ENV,
    facts: () =>
      Promise.resolve({
        osVersion: device?.facts.osVersion ?? null,
        architecture: device?.facts.architecture ?? null,
      }),
    pathExists(raw) {
      if (isWindows) {
        const path = raw.replaceAll('/', '\\').replace(/\\+$/, '').toLowerCase() || 'c:\\';
        const apps = programs.flatMap((p) => [
          `c:\\program files\\${p.toLowerCase()}`,
          `c:\\program files (x86)\\${p.toLowerCase()}`,
        ]);
        return Promise.resolve(
          WINDOWS_FOLDERS.includes(path === 'c:' ? 'c:\\' : path) ||
            [...WINDOWS_TREES, ...apps].some((t) => isUnder(path, t, '\\')),
        );
      }
      const path = raw.replace(/\/+$/, '').toLowerCase() || '/';
      const apps = programs.map((p) => `/applications/${p.toLowerCase()}.app`);
      return Promise.resolve(
        MAC_FOLDERS.includes(path) || [...MAC_TREES, ...apps].some((t) => isUnder(path, t, '/')),
      );
    },
    readRegistry(hive, keyPath, valueName) {
      if (hive !== 'HKEY_LOCAL_MACHINE' || keyPath.toLowerCase() !== CURRENT_VERSION_KEY) {
        return Promise.resolve(null);
      }
      const build = /10\.0\.(\d+)/.exec(device?.facts.osVersion ?? '')?.[1];
      const values: Record<string, string> = {
        '': '',
        currentbuild: build ?? '',
        productname: device?.facts.osVersion ?? 'Windows',
      };
      const data = values[valueName.toLowerCase()];
      return Promise.resolve(data === undefined ? null : { data });
    },
    processNames() {
      const loggedIn = (device?.sessions.length ?? 0) > 0;
      return Promise.resolve(
        isWindows
          ? [...WINDOWS_PROCESSES, ...(loggedIn ? ['explorer.exe'] : [])]
          : [...MAC_PROCESSES, ...(loggedIn ? ['Finder', 'Dock'] : [])],
      );
    },
    loggedInUsers: () => Promise.resolve((device?.sessions ?? []).map((s) => s.userName)),
  };
}
