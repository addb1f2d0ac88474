import { execFile } from 'node:child_process';
import { stat } from 'node:fs/promises';
import type { ConditionProbes } from './conditions';

// The real machine's answers to step conditions (docs/product/rollouts.md#step-conditions): the
// file system, `reg query`, the process list (`tasklist` on Windows, `ps` elsewhere), the open
// sessions and the facts the inventory reports. Each answer is asked for only when a condition
// needs it, and a program that does not answer within PROBE_TIMEOUT_MS is an error.

export const PROBE_TIMEOUT_MS = 15_000;

const HIVE_SHORT: Record<string, string> = {
  HKEY_LOCAL_MACHINE: 'HKLM',
  HKEY_CURRENT_USER: 'HKCU',
  HKEY_USERS: 'HKU',
  HKEY_CLASSES_ROOT: 'HKCR',
  HKEY_CURRENT_CONFIG: 'HKCC',
};

type Run = (file: string, args: string[]) => Promise<{ code: number; stdout: string }>;

const runProgram: Run = (file, args) =>
  new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { timeout: PROBE_TIMEOUT_MS, windowsHide: true, maxBuffer: 8 * 1024 * 1024 },
      (err, stdout) => {
        if (err && typeof err.code !== 'number') {
          reject(new Error(`${file} did not run: ${err.message}`));
          return;
        }
        resolve({ code: err && typeof err.code === 'number' ? err.code : 0, stdout: String(stdout) });
      },
    );
  });

/** `reg query` prints `    <name>    <type>    <data>`; the value's data, or null when absent. */
export function parseRegQuery(stdout: string, valueName: string): string | null {
  const wanted = valueName === '' ? '(default)' : valueName.toLowerCase();
  for (const line of stdout.split(/\r?\n/)) {
    const m = /^\s{2,}(.*?)\s{2,}(REG_[A-Z_]+)(?:\s{2,}(.*))?$/.exec(line);
    if (m && (m[1] ?? '').toLowerCase() === wanted.toLowerCase()) {
      return (m[3] ?? '').trim();
    }
  }
  return null;
}

/** `tasklist /fo csv /nh`: the first column of each line is the image name. */
export function parseTasklist(stdout: string): string[] {
  return stdout
    .split(/\r?\n/)
    .map((line) => /^"([^"]*)"/.exec(line)?.[1] ?? '')
    .filter((n) => n !== '');
}

export function systemConditionProbes(
  platform: NodeJS.Platform,
  opts: { run?: Run; env?: Record<string, string | undefined> } = {},
): ConditionProbes {
  const run = opts.run ?? runProgram;
  let facts: Promise<{ osVersion: string | null; architecture: string | null }> | null = null;
  return {
    platform,
    env: opts.env ?? process.env,
    facts() {
      // once per deployment: the facts do not change while its steps run
      facts ??= import('../inventory/system')
        .then((m) => m.collectFacts())
        .then((f) => ({ osVersion: f.osVersion || null, architecture: f.architecture ?? null }));
      return facts;
    },
    async pathExists(path) {
      try {
        await stat(path);
        return true;
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'ENOTDIR') {
          return false;
        }
        throw new Error(`${path} could not be checked (${code ?? 'error'})`, { cause: err });
      }
    },
    async readRegistry(hive, keyPath, valueName) {
      const key = `${HIVE_SHORT[hive] ?? hive}\\${keyPath}`;
      const args = ['query', key, ...(valueName === '' ? ['/ve'] : ['/v', valueName])];
      const { code, stdout } = await run('reg.exe', args);
      // reg query ends 1 when the key or value is not there
      return code === 0 ? { data: parseRegQuery(stdout, valueName) ?? '' } : null;
    },
    async processNames() {
      if (platform === 'win32') {
        const { code, stdout } = await run('tasklist.exe', ['/fo', 'csv', '/nh']);
        if (code !== 0) {
          throw new Error(`tasklist ended with exit code ${code}`);
        }
        return parseTasklist(stdout);
      }
      const { code, stdout } = await run('ps', ['-A', '-o', 'comm=']);
      if (code !== 0) {
        throw new Error(`ps ended with exit code ${code}`);
      }
      return stdout
        .split('\n')
        .map((l) => l.trim().split('/').pop() ?? '')
        .filter((n) => n !== '');
    },
    async loggedInUsers() {
      const { collectSessions } = await import('../inventory/system');
      return (await collectSessions()).map((s) => s.userName);
    },
  };
}
