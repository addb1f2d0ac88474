import { describe, expect, it } from 'vitest';
import type { DeploymentJobDetail, StepLog } from '@outpost/contract/deployments';
import { jobProgress } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { deploySummary, scheduledAt, validateDeploy } from './deploy-form';
import { currentStepOf } from './device-step';
import { durationMinutes, formatJobDuration, formatStepDuration } from './durations';
import { applyDetailUpdate, applyJobUpdate, applyStepToDevice } from './live-jobs';
import { applyStepUpdate, mergeFetchedLogs } from './live-logs';

describe('deploy dialog rules (docs/product/deployments.md#deploy-dialog-rules, in this order)', () => {
  const online = { status: 'online' };
  it.each([
    [{ packageCount: 0, devices: [], jobName: '' }, messages.selectPackage],
    [{ packageCount: 1, devices: [], jobName: '' }, messages.selectDevice],
    [{ packageCount: 1, devices: [{ status: 'offline' }], jobName: '  ' }, messages.jobNameRequired],
    [{ packageCount: 1, devices: [online, { status: 'offline' }], jobName: 'x' }, messages.devicesOffline],
    [{ packageCount: 1, devices: [online, { status: 'loggedin' }], jobName: 'x' }, null],
  ])('%o → %s', (form, expected) => {
    expect(validateDeploy(form)).toBe(expected);
  });

  it('uses a scheduled time only for later with both date and time', () => {
    expect(scheduledAt({ timing: 'now', date: '2099-01-02', time: '10:00' })).toBeNull();
    expect(scheduledAt({ timing: 'later', date: '2099-01-02', time: '' })).toBeNull();
    expect(scheduledAt({ timing: 'later', date: '', time: '10:00' })).toBeNull();
    expect(scheduledAt({ timing: 'later', date: '2099-01-02', time: '10:00' })?.toISOString()).toBe(
      new Date('2099-01-02T10:00').toISOString(),
    );
    expect(deploySummary(3, { timing: 'later', date: '2099-01-02', time: '' })).toBe(
      'Deploying to 3 device(s)',
    );
  });
});

describe('durations (docs/product/deployments.md#job-statuses)', () => {
  it('gives jobs whole minutes and steps seconds with one decimal', () => {
    expect(durationMinutes('2026-11-23T10:00:00Z', '2026-11-23T10:02:40Z')).toBe(3);
    expect(durationMinutes('2026-11-23 10:00:00', null, Date.parse('2026-11-23T10:10:10Z'))).toBe(10);
    expect(durationMinutes(null, null)).toBeNull();
    expect(formatStepDuration(1234)).toBe('1.2 s');
    expect(formatStepDuration(null)).toBe('—');
  });
});

const detail: DeploymentJobDetail = {
  id: 9,
  name: 'Roll out',
  description: null,
  status: 'running',
  package_id: 1,
  package_name: '7-Zip',
  created_by_name: 'Alex',
  created_at: '2026-11-23T10:00:00Z',
  scheduled_at: null,
  started_at: '2026-11-23T10:00:01Z',
  completed_at: null,
  total_devices: 2,
  completed_devices: 0,
  failed_devices: 0,
  steps: [],
  deployments: [1, 2].map((id) => ({
    id,
    agent_id: id,
    device_guid: `g${id}`,
    hostname: `WS-${id}`,
    ip_address: null,
    status: 'pending' as const,
    started_at: null,
    completed_at: null,
    error_message: null,
    reboot_required: false,
    current_step_order: null,
    current_step_name: null,
  })),
};

describe('live job updates (docs/product/live-updates.md#channels)', () => {
  it('applies job fields, and a device update only to its row and the counters', () => {
    const counted = applyDetailUpdate(detail, {
      deploymentId: 9,
      deviceDeploymentId: 2,
      deviceStatus: 'failed',
      errorMessage: 'exit code 1',
      failed_devices: 1,
      status: 'running',
    });
    expect(counted.failed_devices).toBe(1);
    expect(counted.status).toBe('running');
    expect(counted.deployments[1]).toMatchObject({ status: 'failed', error_message: 'exit code 1' });
    expect(counted.deployments[0]!.status).toBe('pending');
    const done = applyJobUpdate(counted, {
      deploymentId: 9,
      status: 'failed',
      completed_at: '2026-11-23T10:02:00Z',
    });
    expect(done).toMatchObject({ status: 'failed', completed_at: '2026-11-23T10:02:00Z' });
    expect(applyJobUpdate(detail, { deploymentId: 10, status: 'failed' })).toBe(detail);
  });

  it('shows the running step as the device current step', () => {
    const next = applyStepToDevice(detail, {
      deploymentId: 9,
      deviceDeploymentId: 1,
      stepOrder: 2,
      stepName: 'Install',
      status: 'running',
    });
    expect(next.deployments[0]).toMatchObject({
      current_step_order: 2,
      current_step_name: 'Install',
      status: 'running',
    });
  });
});

describe('live step logs (docs/product/deployments.md#details)', () => {
  const log = (over: Partial<StepLog>): StepLog => ({
    id: 1,
    step_order: 1,
    step_name: 'Echo',
    attempt: 1,
    status: 'running',
    duration_ms: null,
    exit_code: null,
    started_at: null,
    completed_at: null,
    stdout_log: '',
    output: null,
    stderr_log: '',
    error_message: null,
    ...over,
  });

  it('appends output chunks and finishes the attempt', () => {
    let logs = applyStepUpdate([], {
      deploymentId: 9,
      deviceDeploymentId: 1,
      stepOrder: 1,
      stepName: 'Echo',
      status: 'running',
      attempt: 1,
      stdout: 'a\n',
    });
    logs = applyStepUpdate(logs, {
      deploymentId: 9,
      deviceDeploymentId: 1,
      stepOrder: 1,
      status: 'running',
      stdout: 'b\n',
      stderr: 'warn',
    });
    logs = applyStepUpdate(logs, {
      deploymentId: 9,
      deviceDeploymentId: 1,
      stepOrder: 1,
      status: 'failed',
      attempt: 1,
      exitCode: 2,
      durationMs: 1500,
    });
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      stdout_log: 'a\nb\n',
      stderr_log: 'warn',
      status: 'failed',
      exit_code: 2,
      duration_ms: 1500,
    });
    logs = applyStepUpdate(logs, {
      deploymentId: 9,
      deviceDeploymentId: 1,
      stepOrder: 1,
      status: 'running',
      attempt: 2,
      stdout: 'retry',
    });
    expect(logs.map((l) => [l.attempt, l.status])).toEqual([
      [1, 'failed'],
      [2, 'running'],
    ]);
  });

  it('lets a finished fetch win, keeps live output ahead of a running fetch, and keeps unsaved attempts', () => {
    const shown = [log({ stdout_log: 'abc' }), log({ id: -2, step_order: 2, attempt: 1 })];
    expect(mergeFetchedLogs([log({ stdout_log: 'ab' })], shown)[0]!.stdout_log).toBe('abc');
    expect(mergeFetchedLogs([log({ stdout_log: 'a', status: 'completed' })], shown)[0]).toMatchObject({
      stdout_log: 'a',
      status: 'completed',
    });
    expect(mergeFetchedLogs([log({})], shown).map((l) => l.step_order)).toEqual([1, 2]);
  });
});

describe("a device's current step (docs/product/deployments.md#details)", () => {
  const at = (status: DeploymentJobDetail['status'], order: number | null) =>
    currentStepOf({ status, current_step_order: order, current_step_name: order ? `step ${order}` : null });
  it('is the step it runs or ended at; a completed or pending device shows none', () => {
    expect(at('running', 2)).toEqual({ order: 2, name: 'step 2' });
    expect(at('failed', 2)).toEqual({ order: 2, name: 'step 2' });
    expect(at('cancelled', 1)).toEqual({ order: 1, name: 'step 1' });
    expect(at('completed', 3)).toBeNull();
    expect(at('pending', 1)).toBeNull();
    expect(at('failed', null)).toBeNull();
  });
});

describe("a job's duration and counts (docs/product/deployments.md#job-statuses)", () => {
  it('gives a job that ran for seconds its seconds, not 0 min', () => {
    expect(formatJobDuration('2026-11-23T10:00:00Z', '2026-11-23T10:00:42Z')).toBe('42 s');
    expect(formatJobDuration('2026-11-23T10:00:00Z', '2026-11-23T10:02:40Z')).toBe('3 min');
    expect(formatJobDuration('2026-11-23 10:00:00', null, Date.parse('2026-11-23T10:00:05Z'))).toBe('5 s');
    expect(formatJobDuration(null, null)).toBe('—');
  });

  it('counts nothing pending once a job has ended: the rest were cancelled', () => {
    const counts = { total_devices: 7, completed_devices: 0, failed_devices: 0 };
    expect(jobProgress({ ...counts, status: 'cancelled' })).toEqual({ percent: 0, pending: 0, cancelled: 7 });
    expect(jobProgress({ ...counts, status: 'pending' })).toEqual({ percent: 0, pending: 7, cancelled: 0 });
    expect(
      jobProgress({ status: 'failed', total_devices: 4, completed_devices: 2, failed_devices: 1 }),
    ).toEqual({ percent: 50, pending: 0, cancelled: 1 });
  });
});
