import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runDeployment } from './run-deployment';
import type { DeploymentDeps } from './run-deployment';
import { systemConditionProbes } from './condition-probes';
import { command, noDownload, reports, step, tempDir } from '../../test/support/steps';

// docs/product/rollouts.md#step-conditions: the step loop checks each step's conditions before it
// runs; a skipped step does not fail the device, an exit-code condition reads the earlier steps.
// The real runner starts only /bin/sh here, inside a temp folder.

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
    conditionProbes: systemConditionProbes('linux', { env: { MARK: path.join(dir, 'mark.txt') } }),
    ...extra,
  };
}

describe('step loop with conditions', () => {
  it('runs a step whose conditions hold, skips one whose condition is false, and completes', async () => {
    const r = reports();
    const mark = path.join(dir, 'mark.txt');
    const result = await runDeployment(
      command([
        step(1, 'CMD', { command: `echo made > "${mark}"` }),
        step(
          2,
          'CMD',
          { command: 'echo second' },
          { conditions: [{ kind: 'path', path: '$MARK', operator: 'exists' }] },
        ),
        step(
          3,
          'CMD',
          { command: 'echo third' },
          { conditions: [{ kind: 'path', path: '$MARK', operator: 'not_exists' }] },
        ),
      ]),
      deps(r),
    );
    expect(result.status).toBe('completed');
    expect(result.steps.map((s) => [s.stepOrder, s.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [3, 'skipped'],
    ]);
    expect(r.output(2)).toBe('second\n');
    const third = r.list.filter((p) => p.stepOrder === 3);
    expect(third).toEqual([
      expect.objectContaining({ status: 'skipped', attempt: 1, note: `Skipped: ${mark} exists` }),
    ]);
    expect(third[0]?.startedAt).toEqual(expect.any(String));
  });

  it('an exit-code condition reads the previous step’s exit code in this run', async () => {
    const r = reports();
    const result = await runDeployment(
      command([
        step(1, 'CMD', { command: 'exit 3' }, { failDeploymentOnError: false }),
        step(
          2,
          'CMD',
          { command: 'echo on three' },
          {
            conditions: [{ kind: 'exit_code', step_order: 1, operator: 'equals', codes: [3] }],
          },
        ),
        step(
          3,
          'CMD',
          { command: 'echo on zero' },
          {
            conditions: [{ kind: 'exit_code', step_order: 1, operator: 'equals', codes: [0] }],
          },
        ),
      ]),
      deps(r),
    );
    expect(result.status).toBe('completed');
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'completed', 'skipped']);
    expect(result.steps[2]?.attempts[0]?.note).toBe('Skipped: step 1 exited 3, not 0');
  });

  it('a condition that cannot be checked fails the step, and with it the device', async () => {
    const r = reports();
    const broken = systemConditionProbes('linux');
    const result = await runDeployment(
      command([
        step(
          1,
          'CMD',
          { command: 'echo one' },
          { conditions: [{ kind: 'process', name: 'x', operator: 'running' }] },
        ),
        step(2, 'CMD', { command: 'echo two' }),
      ]),
      deps(r, {
        conditionProbes: { ...broken, processNames: () => Promise.reject(new Error('ps did not run')) },
      }),
    );
    expect(result.status).toBe('failed');
    expect(result.steps.map((s) => s.status)).toEqual(['failed', 'cancelled']);
    expect(r.list.find((p) => p.stepOrder === 1 && p.status === 'failed')).toMatchObject({
      errorMessage: 'Condition 1 could not be checked: ps did not run',
    });
    expect(r.output(1)).toBe('');
  });
});
