import { describe, expect, it } from 'vitest';
import { deploymentMessages } from '@outpost/contract/messages';
import { runDeployment } from './run-deployment';
import { command, noDownload, recordingRunner, reports, step } from '../../test/support/steps';

// The real step library runs nothing of a package for another OS, nor a step its OS cannot run
// (docs/architecture.md "Package targets"); the server refuses such jobs before they are sent.

const noFiles = () => Promise.reject(new Error('no files in this test'));

async function run(platform: NodeJS.Platform, cmd: ReturnType<typeof command> & { targetOs?: string }) {
  const r = reports();
  const rec = recordingRunner(0);
  const result = await runDeployment(cmd, {
    report: r.report,
    fetchFile: noFiles,
    download: noDownload,
    runner: rec.runner,
    platform,
  });
  return { r, result, calls: rec.calls };
}

describe('package targets on the agent', () => {
  it('a Linux agent fails a Windows package and starts no program', async () => {
    const { r, result, calls } = await run('linux', {
      ...command([step(1, 'CMD', { command: 'echo hi' })]),
      targetOs: 'windows',
    });
    expect(result.status).toBe('failed');
    expect(calls).toEqual([]);
    expect(r.ends()[0]?.errorMessage).toBe(deploymentMessages.packageForOtherOs('Windows', 'Linux'));
  });

  it('a Linux agent runs a Linux package through /bin/sh', async () => {
    const { result, calls } = await run('linux', {
      ...command([step(1, 'CMD', { command: 'echo hi' })]),
      targetOs: 'linux',
    });
    expect(result.status).toBe('completed');
    expect(calls.map((c) => c.file)).toEqual(['/bin/sh']);
  });

  it('a Windows-only step fails on Linux even when the command names no target', async () => {
    const msi = step(1, 'MSI', { source_type: 'url', url: 'https://example.com/a.msi' });
    const { r, calls } = await run('linux', command([msi]));
    expect(calls).toEqual([]);
    expect(r.ends()[0]?.errorMessage).toBe(deploymentMessages.stepForOtherOs('Install MSI', 'Linux'));
  });
});
