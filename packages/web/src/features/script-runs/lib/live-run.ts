import type { JobStatus, StepUpdatePayload } from '@outpost/contract/live';
import type { ScriptRunCounts, ScriptRunDetail, ScriptRunDevice } from '@outpost/contract/script-runs';

// A run's results kept live (docs/product/scripts.md#results): each step_update of the run's one
// step changes its device's row (status, exit code, duration) and appends the output it carries.

const rowStatusOf = (s: StepUpdatePayload['status'], old: JobStatus): JobStatus => {
  switch (s) {
    case 'running':
      return old === 'pending' ? 'running' : old;
    case 'completed':
    case 'failed':
    case 'cancelled':
      return s;
    case 'pending':
    case 'skipped':
      return old;
  }
};

export function applyStepToRun(run: ScriptRunDetail, u: StepUpdatePayload): ScriptRunDetail {
  if (u.deploymentId !== run.id || u.deviceDeploymentId === undefined) {
    return run;
  }
  let changed = false;
  const rows = run.rows.map((r): ScriptRunDevice => {
    if (r.id !== u.deviceDeploymentId) {
      return r;
    }
    changed = true;
    return {
      ...r,
      status: rowStatusOf(u.status, r.status),
      exit_code: u.exitCode ?? r.exit_code,
      duration_ms: u.durationMs ?? r.duration_ms,
      started_at: r.started_at ?? u.startedAt ?? null,
      error_message: u.errorMessage ?? r.error_message,
      output: r.output + (u.stdout ?? '') + (u.stderr ?? ''),
    };
  });
  if (!changed) {
    return run;
  }
  return {
    ...run,
    rows,
    devices: countRows(rows),
    status: run.status === 'pending' ? 'running' : run.status,
  };
}

export function countRows(rows: readonly Pick<ScriptRunDevice, 'status'>[]): ScriptRunCounts {
  const n = (...s: JobStatus[]) => rows.filter((r) => s.includes(r.status)).length;
  return {
    total: rows.length,
    succeeded: n('completed'),
    failed: n('failed', 'cancelled'),
    running: n('running'),
    pending: n('pending'),
  };
}
