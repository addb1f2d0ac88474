import { describe, expect, it, vi } from 'vitest';
import type { JobStatus } from '@outpost/contract/deployments';
import type { DeviceStatus } from '@outpost/contract/devices';
import type { PortalEvent } from '@outpost/contract/live';
import { notificationFor, viewAlertAction, viewDeploymentAction } from './live-notifications';

const device = (status: DeviceStatus, extra: object = {}): PortalEvent => ({
  type: 'device_update',
  payload: { deviceId: 'guid-1', id: 1, status, lastSeen: null, hostname: 'WS-001', ...extra },
});

describe('live notification rules (docs/product/live-updates.md#notifications)', () => {
  it.each<[DeviceStatus | undefined, DeviceStatus, string | null]>([
    ['offline', 'online', 'Device Connected'],
    [undefined, 'online', 'Device Connected'],
    ['offline', 'loggedin', 'Device Connected'],
    ['online', 'offline', 'Device Disconnected'],
    ['loggedin', 'offline', 'Device Disconnected'],
    ['online', 'loggedin', 'User Logged In'],
    [undefined, 'loggedin', 'User Logged In'],
    // a user signing out is not a connection
    ['loggedin', 'online', null],
    // nor is a fault clearing, nor a repeated status
    ['error', 'online', null],
    ['online', 'online', null],
    ['online', 'error', null],
  ])('%s → %s: %s', (previous, status, title) => {
    const toast = notificationFor(device(status), previous);
    expect(toast?.title ?? null).toBe(title);
  });

  it('names the device and uses the spec types', () => {
    expect(notificationFor(device('online'), 'offline')).toMatchObject({
      type: 'success',
      message: 'WS-001 is online',
    });
    expect(notificationFor(device('offline'), 'online')).toMatchObject({ type: 'warning' });
    expect(notificationFor(device('loggedin'), 'online')).toMatchObject({ type: 'info' });
  });

  it('reports deployments and failed steps (docs/product/deployments.md#job-statuses)', () => {
    const job = (status: JobStatus, extra: object = {}): PortalEvent => ({
      type: 'deployment_update',
      payload: { deploymentId: 3, status, ...extra },
    });
    expect(notificationFor(job('running'), undefined, { previous: 'pending' })).toMatchObject({
      type: 'info',
      title: 'Deployment Started',
      message: 'Deployment 3',
    });
    expect(
      notificationFor(job('completed'), undefined, { previous: 'running', name: 'Roll out' }),
    ).toMatchObject({ type: 'success', title: 'Deployment Completed', message: 'Roll out' });
    expect(notificationFor(job('failed'))).toMatchObject({ type: 'error', title: 'Deployment Failed' });
    expect(notificationFor(job('cancelled'), undefined, { previous: 'running' })).toMatchObject({
      type: 'warning',
      title: 'Deployment Cancelled',
    });
    expect(notificationFor(job('pending'))).toBeNull();
    expect(
      notificationFor({
        type: 'step_update',
        payload: { deploymentId: 3, stepOrder: 2, stepName: 'Install', status: 'failed' },
      }),
    ).toMatchObject({ type: 'error', title: 'Deployment Step Failed', message: 'Install failed' });
    expect(
      notificationFor(
        {
          type: 'step_update',
          payload: { deploymentId: 3, stepOrder: 2, status: 'failed', errorMessage: 'exit code 1' },
        },
        undefined,
        { name: 'Roll out' },
      ),
    ).toMatchObject({ message: 'Step 2 failed (Roll out): exit code 1' });
  });

  it('announces only changes of the job status, not counters repeating it', () => {
    const running: PortalEvent = {
      type: 'deployment_update',
      payload: { deploymentId: 3, status: 'running', completed_devices: 2 },
    };
    expect(notificationFor(running, undefined, { previous: 'running' })).toBeNull();
    expect(
      notificationFor({ type: 'deployment_update', payload: { deploymentId: 3, completed_devices: 2 } }),
    ).toBeNull();
  });

  it('expires non-errors after 5 s and keeps errors until dismissed', () => {
    expect(notificationFor(device('online'), 'offline')?.duration).toBe(5000);
    expect(
      notificationFor({ type: 'deployment_update', payload: { deploymentId: 1, status: 'failed' } })
        ?.duration,
    ).toBe(0);
  });

  it('stays quiet for inventory reports and for a device within a job that leaves the job as it was', () => {
    expect(notificationFor(device('online', { inventory: ['software'] }), 'offline')).toBeNull();
    // a device failed; the job (status) is still running
    const deviceFailed: PortalEvent = {
      type: 'deployment_update',
      payload: { deploymentId: 1, deviceDeploymentId: 4, deviceStatus: 'failed', status: 'running' },
    };
    expect(notificationFor(deviceFailed, undefined, { previous: 'running' })).toBeNull();
    // the last device finished, and with it the job
    expect(
      notificationFor(
        { type: 'deployment_update', payload: { deploymentId: 1, deviceDeploymentId: 4, status: 'failed' } },
        undefined,
        { previous: 'running' },
      ),
    ).toMatchObject({ title: 'Deployment Failed' });
    expect(
      notificationFor({
        type: 'deployment_update',
        payload: { deploymentId: 1, jobName: 'Roll out 7-Zip', status: 'completed' },
      }),
    ).toMatchObject({ message: 'Roll out 7-Zip' });
  });

  it('ignores other changes', () => {
    expect(
      notificationFor({
        type: 'step_update',
        payload: { deploymentId: 1, stepOrder: 1, status: 'completed' },
      }),
    ).toBeNull();
    expect(
      notificationFor({
        type: 'connection_status',
        payload: { status: 'connected', serverTime: '2026-11-23T00:00:00Z', userId: 1, tenantId: 1 },
      }),
    ).toBeNull();
  });
});

describe("the 'View deployment' action", () => {
  it('is offered elsewhere, and not on the deployment’s own page', () => {
    const navigate = vi.fn();
    const action = viewDeploymentAction(42, '/deployments', navigate);
    expect(action?.label).toBe('View deployment');
    action?.onClick();
    expect(navigate).toHaveBeenCalledWith('/deployments/42');
    expect(viewDeploymentAction(42, '/deployments/42', navigate)).toBeUndefined();
    expect(viewDeploymentAction(42, '/deployments/42/', navigate)).toBeUndefined();
    expect(viewDeploymentAction(42, '/deployments/421', navigate)?.label).toBe('View deployment');
  });
});

describe("the critical alert's 'View alert' action (docs/product/monitoring.md#the-alerts-page)", () => {
  it('opens the Alerts page at the alert’s device, and is not offered on the Alerts page', () => {
    const navigate = vi.fn();
    const action = viewAlertAction('guid-1', '/dashboard', navigate);
    expect(action?.label).toBe('View alert');
    action?.onClick();
    expect(navigate).toHaveBeenCalledWith('/alerts?device=guid-1');
    viewAlertAction(null, '/devices', navigate)?.onClick();
    expect(navigate).toHaveBeenLastCalledWith('/alerts');
    expect(viewAlertAction('guid-1', '/alerts', navigate)).toBeUndefined();
    expect(viewAlertAction('guid-1', '/alerts/', navigate)).toBeUndefined();
  });
});

describe('alert toasts (docs/product/monitoring.md#alerts)', () => {
  const alert = (over: Record<string, unknown>) =>
    ({
      type: 'alert_update',
      payload: {
        change: 'opened',
        alert: {
          id: 1,
          condition: 'check',
          title: 'Disk space',
          detail: null,
          severity: 'critical',
          state: 'open',
          device: { guid: 'g', hostname: 'web-01' },
          site_id: null,
          check_id: 3,
          job_id: null,
          first_seen_at: '',
          last_seen_at: '',
          occurrences: 1,
          acknowledged_at: null,
          acknowledged_by: null,
          acknowledge_note: null,
          resolved_at: null,
          resolved_by: null,
          resolve_note: null,
          silenced: false,
          ...over,
        },
      },
    }) as PortalEvent;

  it('toasts a new critical alert until dismissed, and nothing else', () => {
    expect(notificationFor(alert({}))).toMatchObject({
      type: 'error',
      title: 'Critical Alert',
      message: 'web-01: Disk space',
      duration: 0,
    });
    expect(notificationFor(alert({ severity: 'warning' }))).toBeNull();
    expect(notificationFor(alert({ silenced: true }))).toBeNull();
    // a halted rollout has its own 'Rollout Halted' toast
    expect(notificationFor(alert({ condition: 'rollout_halted', device: null }))).toBeNull();
  });
});
