import { chmod, mkdir, readdir, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDeployment } from './run-deployment';
import { command, noDownload, recordingRunner, reports, step, tempDir } from '../../test/support/steps';
import { openWorkFolders } from './work-folders';

// The deployment's folders (SECURITY.md "The agent's file-handling rules"): created private and
// checked before a step runs; a refused work folder fails the step with the reason in its log.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

describe('work folders', () => {
  it('makes the deployment and attempt folders private and removes them afterwards', async () => {
    const work = path.join(dir, 'state', 'work');
    const folders = await openWorkFolders({
      workDir: work,
      deviceDeploymentId: 3,
      platform: 'linux',
      usesDisk: true,
    });
    const scratch = await folders.prepareScratch(2, 1);
    expect(scratch).toBe(path.join(work, 'deployment-3', 'step-2-attempt-1'));
    expect((await stat(scratch)).mode & 0o777).toBe(0o700);
    await folders.removeScratch(scratch);
    await folders.close();
    expect(await readdir(work)).toEqual([]);
  });

  it('without a work folder, uses a fresh one with a random name in the temp folder and removes it', async () => {
    const folders = await openWorkFolders({ deviceDeploymentId: 3, platform: 'linux', usesDisk: true });
    expect(path.dirname(folders.workDir)).toBe(os.tmpdir());
    expect(path.basename(folders.workDir)).toMatch(/^outpost-work-.{6}$/);
    expect((await stat(folders.workDir)).mode & 0o777).toBe(0o700);
    await folders.prepareScratch(1, 1);
    await folders.close();
    await expect(stat(folders.workDir)).rejects.toThrow();
  });

  it('on Windows secures the work folder once per deployment through the given function', async () => {
    const secured: string[] = [];
    const work = path.join(dir, 'work');
    const folders = await openWorkFolders({
      workDir: work,
      deviceDeploymentId: 1,
      platform: 'win32',
      usesDisk: true,
      secureFolder: (d) => Promise.resolve(void secured.push(d)),
    });
    await folders.prepareScratch(1, 1);
    await folders.prepareScratch(1, 2);
    await folders.prepareScratch(2, 1);
    expect(secured).toEqual([work]);
  });

  it('the fleet simulator touches no disk', async () => {
    const folders = await openWorkFolders({
      workDir: path.join(dir, 'sim'),
      deviceDeploymentId: 1,
      platform: 'win32',
      usesDisk: false,
    });
    expect(await folders.prepareScratch(1, 1)).toBe(
      path.join(dir, 'sim', 'deployment-1', 'step-1-attempt-1'),
    );
    await folders.close();
    expect(await readdir(dir)).toEqual([]);
  });

  it('a work folder that is a symbolic link fails the step with the reason, runs nothing, and is not retried', async () => {
    const target = path.join(dir, 'target');
    await mkdir(target);
    const work = path.join(dir, 'work');
    await symlink(target, work);
    const r = reports();
    const rec = recordingRunner(0);
    const result = await runDeployment(command([step(1, 'CMD', { command: 'echo hi' }, { retryCount: 2 })]), {
      report: r.report,
      fetchFile: () => Promise.reject(new Error('no files')),
      download: noDownload,
      runner: rec.runner,
      workDir: work,
    });
    expect(result.status).toBe('failed');
    expect(result.steps[0]?.attempts).toHaveLength(1);
    expect(result.steps[0]?.attempts[0]?.errorMessage).toBe(
      `The agent's work folder ${work} is a symbolic link; refusing to use it. Remove it and the agent creates a private folder.`,
    );
    expect(rec.calls).toEqual([]);
    expect(await readdir(target)).toEqual([]);
  });

  it('a work folder under a parent others can write to is refused', async () => {
    const shared = path.join(dir, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o777);
    const r = reports();
    const rec = recordingRunner(0);
    const result = await runDeployment(command([step(1, 'CMD', { command: 'echo hi' })]), {
      report: r.report,
      fetchFile: () => Promise.reject(new Error('no files')),
      download: noDownload,
      runner: rec.runner,
      workDir: path.join(shared, 'work'),
    });
    expect(result.steps[0]?.attempts[0]?.errorMessage).toMatch(/writable by other accounts \(mode 777\)/);
    expect(rec.calls).toEqual([]);
  });
});
