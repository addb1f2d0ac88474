import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { StepCondition } from '@outpost/contract/step-conditions';
import { conditionOsVersion, evaluateConditions, expandEnv } from './conditions';
import type { ConditionProbes } from './conditions';
import { parseRegQuery, parseTasklist, systemConditionProbes } from './condition-probes';

// docs/product/rollouts.md#step-conditions: each kind true, false, and where it cannot hold.

function probes(extra: Partial<ConditionProbes> = {}): ConditionProbes {
  return {
    platform: 'win32',
    env: { ProgramFiles: 'C:\\Program Files' },
    facts: () => Promise.resolve({ osVersion: 'Microsoft Windows 11 Pro 10.0.22631', architecture: 'x64' }),
    pathExists: (p) => Promise.resolve(p === 'C:\\Program Files\\App\\app.exe'),
    readRegistry: (hive, key, name) =>
      Promise.resolve(
        hive === 'HKEY_LOCAL_MACHINE' && key === 'SOFTWARE\\App' && name === 'Version'
          ? { data: '0x2' }
          : null,
      ),
    processNames: () => Promise.resolve(['System', 'App.exe']),
    loggedInUsers: () => Promise.resolve(['ACME\\alice']),
    ...extra,
  };
}

const verdict = (c: StepCondition, p = probes(), earlier = [{ stepOrder: 1, exitCode: 3010 }]) =>
  evaluateConditions([c], p, earlier);
const holds = { holds: true };
const fails = (reason: string) => ({ holds: false, reason });

describe('step conditions on a device', () => {
  it('OS version: dotted compare of the facts’ version', async () => {
    expect(await verdict({ kind: 'os_version', min: '10.0.19045' })).toEqual(holds);
    expect(await verdict({ kind: 'os_version', min: '10.0.22631', max: '10.0.22631' })).toEqual(holds);
    expect(await verdict({ kind: 'os_version', max: '10.0.19045' })).toEqual(
      fails('the OS version is 10.0.22631, above 10.0.19045'),
    );
    expect(await verdict({ kind: 'os_version', min: '10.0.26100' })).toEqual(
      fails('the OS version is 10.0.22631, below 10.0.26100'),
    );
    expect(conditionOsVersion('Debian GNU/Linux 12')).toBe('12');
    expect(conditionOsVersion('Microsoft Windows 11 Pro 23H2 (10.0.22631)')).toBe('10.0.22631');
  });

  it('architecture: any of the chosen ones', async () => {
    expect(await verdict({ kind: 'architecture', architectures: ['arm64', 'x64'] })).toEqual(holds);
    expect(await verdict({ kind: 'architecture', architectures: ['arm64'] })).toEqual(
      fails('the device is x64, not arm64'),
    );
  });

  it('path: exists and does not exist, with environment variables expanded', async () => {
    const c = { kind: 'path', path: '%PROGRAMFILES%\\App\\app.exe' } as const;
    expect(await verdict({ ...c, operator: 'exists' })).toEqual(holds);
    expect(await verdict({ ...c, operator: 'not_exists' })).toEqual(
      fails('C:\\Program Files\\App\\app.exe exists'),
    );
    expect(await verdict({ kind: 'path', path: 'C:\\Other', operator: 'exists' })).toEqual(
      fails('C:\\Other does not exist'),
    );
    expect(expandEnv('$HOME/x/${APP}/$NOPE', { HOME: '/root', APP: 'a' }, 'linux')).toBe('/root/x/a/$NOPE');
  });

  it('path: the real file system', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'cond-'));
    try {
      await writeFile(path.join(dir, 'there'), 'x');
      const real = systemConditionProbes('linux', { env: { DIR: dir } });
      const there = { kind: 'path', path: '$DIR/there', operator: 'exists' } as const;
      expect(await evaluateConditions([there], real, [])).toEqual(holds);
      expect(await evaluateConditions([{ ...there, path: '$DIR/missing' }], real, [])).toEqual(
        fails(`${dir}/missing does not exist`),
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('registry: exists and equals on Windows; false elsewhere, saying why', async () => {
    const c = {
      kind: 'registry',
      hive: 'HKEY_LOCAL_MACHINE',
      key_path: 'SOFTWARE\\App',
      value_name: 'Version',
    } as const;
    expect(await verdict({ ...c, operator: 'exists' })).toEqual(holds);
    expect(await verdict({ ...c, operator: 'equals', value: '2' })).toEqual(holds);
    expect(await verdict({ ...c, operator: 'equals', value: '3' })).toEqual(
      fails('HKEY_LOCAL_MACHINE\\SOFTWARE\\App\\Version is 0x2, not 3'),
    );
    expect(await verdict({ ...c, value_name: 'Missing', operator: 'exists' })).toEqual(
      fails('HKEY_LOCAL_MACHINE\\SOFTWARE\\App\\Missing does not exist'),
    );
    expect(await verdict({ ...c, operator: 'exists' }, probes({ platform: 'linux' }))).toEqual(
      fails('registry conditions hold only on Windows (this device runs Linux)'),
    );
  });

  it('process: running and not running, case-insensitive', async () => {
    expect(await verdict({ kind: 'process', name: 'app.exe', operator: 'running' })).toEqual(holds);
    expect(await verdict({ kind: 'process', name: 'app.exe', operator: 'not_running' })).toEqual(
      fails('app.exe is running'),
    );
    expect(await verdict({ kind: 'process', name: 'other.exe', operator: 'running' })).toEqual(
      fails('other.exe is not running'),
    );
  });

  it('logged-in user: anyone or one account', async () => {
    expect(await verdict({ kind: 'user_logged_in', operator: 'logged_in' })).toEqual(holds);
    expect(await verdict({ kind: 'user_logged_in', operator: 'logged_in', user: 'Alice' })).toEqual(holds);
    expect(await verdict({ kind: 'user_logged_in', operator: 'not_logged_in' })).toEqual(
      fails('a user is logged in (ACME\\alice)'),
    );
    const nobody = probes({ loggedInUsers: () => Promise.resolve([]) });
    expect(await verdict({ kind: 'user_logged_in', operator: 'logged_in' }, nobody)).toEqual(
      fails('no user is logged in'),
    );
    expect(await verdict({ kind: 'user_logged_in', operator: 'not_logged_in', user: 'bob' })).toEqual(holds);
  });

  it('exit code: reads the earlier step of this run', async () => {
    expect(await verdict({ kind: 'exit_code', step_order: 1, operator: 'in', codes: [0, 3010] })).toEqual(
      holds,
    );
    expect(await verdict({ kind: 'exit_code', step_order: 1, operator: 'equals', codes: [0] })).toEqual(
      fails('step 1 exited 3010, not 0'),
    );
    expect(
      await verdict({ kind: 'exit_code', step_order: 1, operator: 'not_equals', codes: [3010] }),
    ).toEqual(fails('step 1 exited 3010'));
    expect(await verdict({ kind: 'exit_code', step_order: 2, operator: 'equals', codes: [0] })).toEqual(
      fails('step 2 has no exit code in this run'),
    );
  });

  it('all must hold: the first false one answers, and a probe that fails is an error', async () => {
    const both: StepCondition[] = [
      { kind: 'architecture', architectures: ['x64'] },
      { kind: 'process', name: 'x.exe', operator: 'running' },
    ];
    expect(await evaluateConditions(both, probes(), [])).toEqual(fails('x.exe is not running'));
    const broken = probes({ processNames: () => Promise.reject(new Error('tasklist did not run')) });
    await expect(evaluateConditions(both, broken, [])).rejects.toThrow(
      'Condition 2 could not be checked: tasklist did not run',
    );
  });

  it('reads reg query and tasklist output', () => {
    const reg = '\r\nHKEY_LOCAL_MACHINE\\SOFTWARE\\App\r\n    Version    REG_DWORD    0x2\r\n\r\n';
    expect(parseRegQuery(reg, 'version')).toBe('0x2');
    expect(parseRegQuery('    (Default)    REG_SZ    hello\r\n', '')).toBe('hello');
    expect(
      parseTasklist('"System","4","Services","0","1,234 K"\r\n"app.exe","99","Console","1","5 K"\r\n'),
    ).toEqual(['System', 'app.exe']);
  });
});
