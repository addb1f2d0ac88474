import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDeployment } from './run-deployment';
import type { DeploymentDeps } from './run-deployment';
import {
  command,
  noDownload,
  recordingRunner,
  reports,
  serve,
  step,
  tempDir,
} from '../../test/support/steps';

// The real runner here starts only /bin/sh with echo, exit and sleep, inside a temp folder.

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

function deps(r: ReturnType<typeof reports>, extra: Partial<DeploymentDeps> = {}): DeploymentDeps {
  return {
    report: r.report,
    fetchFile: () => Promise.reject(new Error('no files')),
    download: noDownload,
    workDir: path.join(dir, 'work'),
    outputLimits: { flushIntervalMs: 10 },
    ...extra,
  };
}

/** Dead or a zombie waiting for its parent: either way no longer running. */
async function isGone(pid: number): Promise<boolean> {
  for (let i = 0; i < 50; i += 1) {
    const state = await readFile(`/proc/${pid}/stat`, 'utf8').then(
      (s) => s.slice(s.lastIndexOf(')') + 2, s.lastIndexOf(')') + 3),
      () => 'gone',
    );
    if (state === 'gone' || state === 'Z') {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

describe('runDeployment', () => {
  it('runs CMD through /bin/sh in step order, streams the output and reports exit codes', async () => {
    const r = reports();
    const result = await runDeployment(
      command([
        step(2, 'CMD', { command: 'echo second; exit 0' }),
        step(1, 'CMD', { command: 'echo first; echo oops >&2' }),
      ]),
      deps(r),
    );
    expect(result.status).toBe('completed');
    expect(result.steps.map((s) => [s.stepOrder, s.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
    ]);
    expect(r.output(1)).toBe('first\n');
    expect(r.output(1, 1, 'stderr')).toBe('oops\n');
    expect(result.steps[0]?.attempts[0]).toMatchObject({ stdout: 'first\n', stderr: 'oops\n', exitCode: 0 });
    const first = r.list.filter((p) => p.stepOrder === 1);
    expect(first[0]).toMatchObject({ status: 'running', attempt: 1 });
    expect(first.at(-1)).toMatchObject({ status: 'completed', attempt: 1, exitCode: 0, errorMessage: null });
    expect(first.at(-1)?.completedAt).toEqual(expect.any(String));
  });

  it('creates the working directory when it is missing and runs there', async () => {
    const r = reports();
    const work = path.join(dir, 'a', 'b');
    const result = await runDeployment(
      command([step(1, 'CMD', { command: 'pwd' })]),
      deps(r, { workDir: work }),
    );
    expect(result.status).toBe('completed');
    expect((await stat(work)).isDirectory()).toBe(true);
    expect(r.output(1).trim()).toBe(work);
  });

  it('re-runs a failing step retry_count times and reports every attempt', async () => {
    const r = reports();
    const result = await runDeployment(
      command([step(1, 'CMD', { command: 'echo try; exit 3' }, { retryCount: 2 })]),
      deps(r),
    );
    expect(result.status).toBe('failed');
    const ends = r.list.filter((p) => p.status === 'failed');
    expect(ends.map((p) => [p.attempt, p.exitCode, p.errorMessage])).toEqual([
      [1, 3, 'Exit code 3'],
      [2, 3, 'Exit code 3'],
      [3, 3, 'Exit code 3'],
    ]);
    expect(result.steps[0]?.attempts.map((a) => a.stdout)).toEqual(['try\n', 'try\n', 'try\n']);
  });

  it('stops retrying once an attempt succeeds', async () => {
    const r = reports();
    const marker = path.join(dir, 'marker');
    // fails the first time (no marker yet), succeeds the second
    const script = `if [ -e '${marker}' ]; then exit 0; else touch '${marker}'; exit 1; fi`;
    const result = await runDeployment(
      command([step(1, 'CMD', { command: script }, { retryCount: 4 })]),
      deps(r),
    );
    expect(result.status).toBe('completed');
    expect(result.steps[0]?.attempts.map((a) => a.status)).toEqual(['failed', 'completed']);
  });

  it('kills the whole process tree when a step times out', async () => {
    const r = reports();
    const pidFile = path.join(dir, 'child.pid');
    const result = await runDeployment(
      command([
        step(1, 'CMD', { command: `sleep 30 & echo $! > '${pidFile}'; wait` }, { timeoutSeconds: 1 }),
      ]),
      deps(r),
    );
    expect(result.status).toBe('failed');
    expect(r.list.at(-1)).toMatchObject({
      status: 'failed',
      exitCode: null,
      errorMessage: 'Timed out after 1 seconds; the process was stopped',
    });
    const grandchild = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await isGone(grandchild)).toBe(true);
  });

  it('carries on after a failed step whose fail_deployment_on_error is off', async () => {
    const r = reports();
    const result = await runDeployment(
      command([
        step(1, 'CMD', { command: 'exit 5' }, { failDeploymentOnError: false }),
        step(2, 'CMD', { command: 'echo still here' }),
      ]),
      deps(r),
    );
    expect(result.status).toBe('completed');
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'completed']);
    expect(r.output(2)).toBe('still here\n');
  });

  it('fails the deployment and cancels the later steps when fail_deployment_on_error is on', async () => {
    const r = reports();
    const result = await runDeployment(
      command([
        step(1, 'CMD', { command: 'exit 5' }),
        step(2, 'CMD', { command: 'echo never' }),
        step(3, 'FOLDER', { folder_path: path.join(dir, 'never') }),
      ]),
      deps(r),
    );
    expect(result.status).toBe('failed');
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'cancelled', 'cancelled']);
    expect(r.list.filter((p) => p.stepOrder > 1)).toEqual([
      { stepOrder: 2, status: 'cancelled', errorMessage: 'Not run: an earlier step failed' },
      { stepOrder: 3, status: 'cancelled', errorMessage: 'Not run: an earlier step failed' },
    ]);
    await expect(stat(path.join(dir, 'never'))).rejects.toThrow();
  });

  it('reads EXE success exit codes, with 3010 marking a reboot as required', async () => {
    const r = reports();
    const { runner } = recordingRunner(3010);
    const result = await runDeployment(
      command([step(1, 'MSI', { source_type: 'url', url: 'https://example.com/a.msi' })]),
      deps(r, { runner, platform: 'win32', download: serve('MSI') }),
    );
    expect(result).toMatchObject({ status: 'completed', rebootRequired: true });
    expect(r.output(1)).toContain('[Outpost: reboot required (exit code 3010)]');
  });

  it('fails a step whose exit code is not among its success codes', async () => {
    const r = reports();
    const { runner } = recordingRunner(0);
    const result = await runDeployment(
      command([
        step(1, 'MSI', { source_type: 'url', url: 'https://example.com/a.msi', success_exit_codes: '1, 2' }),
      ]),
      deps(r, { runner, platform: 'win32', download: serve('MSI') }),
    );
    expect(result.status).toBe('failed');
    expect(r.list.at(-1)).toMatchObject({ status: 'failed', exitCode: 0, errorMessage: 'Exit code 0' });
  });

  it('caps each stream at the limit with a truncation note', async () => {
    const r = reports();
    const result = await runDeployment(
      command([
        step(1, 'CMD', { command: 'i=0; while [ $i -lt 200 ]; do echo 0123456789; i=$((i+1)); done' }),
      ]),
      deps(r, { outputLimits: { maxBytes: 100, chunkChars: 40, flushIntervalMs: 10 } }),
    );
    expect(result.status).toBe('completed');
    const kept = result.steps[0]?.attempts[0]?.stdout ?? '';
    expect(kept.startsWith('0123456789\n'.repeat(9) + '0')).toBe(true);
    expect(kept.endsWith('[Outpost: output truncated after 100 bytes]\n')).toBe(true);
    expect(r.output(1)).toBe(kept);
    const chunks = r.list.filter((p) => typeof p.stdout === 'string').map((p) => p.stdout ?? '');
    expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(40);
  });

  it('cancels through the AbortSignal: the running process is killed, it and the rest report cancelled', async () => {
    const r = reports();
    const abort = new AbortController();
    const result = await runDeployment(
      command([
        step(1, 'CMD', { command: 'echo started; sleep 30' }),
        step(2, 'CMD', { command: 'echo never' }),
      ]),
      deps(r, {
        signal: abort.signal,
        report: (p) => {
          r.report(p);
          if (p.stdout?.includes('started')) {
            abort.abort();
          }
        },
      }),
    );
    expect(result.status).toBe('cancelled');
    expect(result.steps.map((s) => s.status)).toEqual(['cancelled', 'cancelled']);
    expect(r.list.filter((p) => p.status === 'cancelled')).toEqual([
      expect.objectContaining({ stepOrder: 1, attempt: 1, errorMessage: 'Deployment cancelled' }),
      { stepOrder: 2, status: 'cancelled', errorMessage: 'Deployment cancelled' },
    ]);
  });

  it('starts a CMD step in the background when wait_for_completion is off', async () => {
    const r = reports();
    const marker = path.join(dir, 'background-ran');
    const result = await runDeployment(
      command([step(1, 'CMD', { command: `touch '${marker}'`, wait_for_completion: false })]),
      deps(r),
    );
    expect(result.status).toBe('completed');
    expect(r.list.at(-1)).toMatchObject({ status: 'completed', exitCode: null });
    expect(r.output(1)).toContain('Started in the background');
    // the command ran on its own; wait for it without timing anything
    for (
      let i = 0;
      i < 50 &&
      !(await stat(marker).then(
        () => true,
        () => false,
      ));
      i += 1
    ) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect((await stat(marker)).isFile()).toBe(true);
  });

  it('fails a step with invalid details or an unknown type once, with the reason, without retrying', async () => {
    const r = reports();
    const result = await runDeployment(
      command([
        step(1, 'CMD', {}, { retryCount: 3, failDeploymentOnError: false }),
        step(2, 'TELEPORT', {}, { failDeploymentOnError: false }),
      ]),
      deps(r),
    );
    expect(result.steps.map((s) => s.attempts.length)).toEqual([1, 1]);
    expect(result.steps[0]?.attempts[0]?.errorMessage).toMatch(/Command/);
    expect(result.steps[1]?.attempts[0]?.errorMessage).toBe('Unknown step type: TELEPORT');
  });
});
