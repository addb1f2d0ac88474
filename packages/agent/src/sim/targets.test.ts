import { describe, expect, it } from 'vitest';
import { deploymentMessages } from '@outpost/contract/messages';
import { command, reports, step } from '../../test/support/steps';
import { createSimulatedRunner } from './deployments';
import type { SimDeploymentOptions } from './deployments';
import { createRng } from './rng';

// A simulated Mac does not pretend to run Windows work (docs/architecture.md "Package targets").

const FAST: Partial<SimDeploymentOptions> = {
  stepDurationMs: { min: 1000, max: 2000 },
  timeScale: 0.05,
  failureRate: 0,
};

const folderStep = step(1, 'FOLDER', { folder_path: 'C:\\Tools' });

async function run(
  platform: SimDeploymentOptions['platform'],
  cmd: ReturnType<typeof command> & { targetOs?: string },
) {
  const r = reports();
  const runner = createSimulatedRunner({ ...FAST, platform }, createRng(7));
  const result = await runner(cmd, { report: r.report, signal: new AbortController().signal });
  return { r, result };
}

describe('simulated deployments and package targets', () => {
  it('a simulated Mac fails a Windows package without printing that it ran', async () => {
    const { r, result } = await run('darwin', { ...command([folderStep]), targetOs: 'windows' });
    expect(result.status).toBe('failed');
    expect(r.ends()).toEqual([
      expect.objectContaining({
        stepOrder: 1,
        status: 'failed',
        errorMessage: deploymentMessages.packageForOtherOs('Windows', 'macOS'),
      }),
    ]);
    expect(r.output(1)).toBe('');
  });

  it('a simulated Mac fails a Windows-only step even when the command names no target', async () => {
    const registry = step(1, 'REGISTRY', {
      hive: 'HKEY_LOCAL_MACHINE',
      key_path: 'SOFTWARE\\Acme',
      value_name: 'Ring',
      value_type: 'REG_SZ',
      value_data: 'fast',
    });
    const { r, result } = await run('darwin', command([registry]));
    expect(result.status).toBe('failed');
    expect(r.ends()[0]?.errorMessage).toBe(deploymentMessages.stepForOtherOs('Registry', 'macOS'));
  });

  it('a simulated Windows machine runs a Windows package', async () => {
    const { r, result } = await run('win32', { ...command([folderStep]), targetOs: 'windows' });
    expect(result.status).toBe('completed');
    expect(r.output(1)).toContain('Created C:\\Tools');
  });
});
