import { describe, expect, it } from 'vitest';
import { evaluateConditions } from '../steps/conditions';
import { simulatedConditionProbes } from './sim-conditions';
import { createRng } from './rng';
import { createVirtualDevice } from './virtual-device';

// docs/product/rollouts.md#step-conditions "On simulated devices": the answers a simulated machine gives.

describe('simulated step conditions', () => {
  const device = { ...createVirtualDevice(createRng(1), 0, { prefix: 'SIM', subnet: 1 }), sessions: [] };
  const windows = {
    ...device,
    facts: {
      ...device.facts,
      osType: 'windows',
      osVersion: 'Microsoft Windows 11 Pro 23H2 (10.0.22631)',
      architecture: 'x64',
    },
  };
  const probes = simulatedConditionProbes(windows, 'win32');

  it('has the system folders and a folder per installed program, nothing else', async () => {
    const app = windows.software[0]!.name;
    const exists = (path: string) =>
      evaluateConditions([{ kind: 'path', path, operator: 'exists' }], probes, []);
    expect(await exists('%SystemRoot%\\System32\\cmd.exe')).toEqual({ holds: true });
    expect(await exists(`%ProgramFiles%\\${app}\\app.exe`)).toEqual({ holds: true });
    expect(await exists('C:\\App\\app.exe')).toEqual({
      holds: false,
      reason: 'C:\\App\\app.exe does not exist',
    });
  });

  it('answers from its facts, its sessions and a fixed process list', async () => {
    expect(await evaluateConditions([{ kind: 'os_version', min: '10.0.22000' }], probes, [])).toEqual({
      holds: true,
    });
    expect(await evaluateConditions([{ kind: 'user_logged_in', operator: 'logged_in' }], probes, [])).toEqual(
      {
        holds: false,
        reason: 'no user is logged in',
      },
    );
    expect(
      await evaluateConditions(
        [{ kind: 'process', name: 'explorer.exe', operator: 'not_running' }],
        probes,
        [],
      ),
    ).toEqual({
      holds: true,
    });
    expect(
      await evaluateConditions(
        [
          {
            kind: 'registry',
            hive: 'HKEY_LOCAL_MACHINE',
            key_path: 'SOFTWARE\\Microsoft\\Windows NT\\CurrentVersion',
            value_name: 'CurrentBuild',
            operator: 'equals',
            value: '22631',
          },
        ],
        probes,
        [],
      ),
    ).toEqual({ holds: true });
  });
});
