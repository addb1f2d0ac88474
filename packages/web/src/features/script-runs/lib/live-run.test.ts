import { describe, expect, it } from 'vitest';
import type { ScriptRunDetail } from '@outpost/contract/script-runs';
import { applyStepToRun } from './live-run';

const run = (): ScriptRunDetail => ({
  id: 7,
  script_id: 1,
  script_name: 'Disk check',
  version: 2,
  language: 'bash',
  status: 'running',
  created_at: '2026-11-27T10:00:00Z',
  created_by_name: 'Ada',
  completed_at: null,
  devices: { total: 2, succeeded: 0, failed: 0, running: 0, pending: 2 },
  timeout_seconds: 60,
  offline: 'wait',
  params: {},
  secret_names: [],
  rows: [
    {
      id: 1,
      device_id: 'a',
      hostname: 'a',
      status: 'pending',
      exit_code: null,
      duration_ms: null,
      started_at: null,
      completed_at: null,
      error_message: null,
      output: '',
      output_cut_bytes: 0,
    },
    {
      id: 2,
      device_id: 'b',
      hostname: 'b',
      status: 'pending',
      exit_code: null,
      duration_ms: null,
      started_at: null,
      completed_at: null,
      error_message: null,
      output: '',
      output_cut_bytes: 0,
    },
  ],
});

describe('applyStepToRun', () => {
  it('appends output and moves the counters as devices start and end', () => {
    let r = applyStepToRun(run(), {
      deploymentId: 7,
      deviceDeploymentId: 1,
      stepOrder: 1,
      status: 'running',
      stdout: 'one\n',
    });
    r = applyStepToRun(r, {
      deploymentId: 7,
      deviceDeploymentId: 1,
      stepOrder: 1,
      status: 'running',
      stdout: 'two\n',
    });
    expect(r.rows[0]!.output).toBe('one\ntwo\n');
    expect(r.devices).toMatchObject({ running: 1, pending: 1 });
    r = applyStepToRun(r, {
      deploymentId: 7,
      deviceDeploymentId: 1,
      stepOrder: 1,
      status: 'failed',
      exitCode: 3,
      durationMs: 1200,
    });
    expect(r.rows[0]).toMatchObject({ status: 'failed', exit_code: 3, duration_ms: 1200 });
    expect(r.devices).toMatchObject({ failed: 1, running: 0, pending: 1 });
  });

  it('ignores another run’s updates', () => {
    const before = run();
    expect(
      applyStepToRun(before, { deploymentId: 8, deviceDeploymentId: 1, stepOrder: 1, status: 'running' }),
    ).toBe(before);
  });
});
