import { describe, expect, it } from 'vitest';
import { notificationFor } from './live-notifications';

describe('live notification rules (spec: core §4)', () => {
  it.each([
    ['device_update', { deviceId: 1, status: 'online' }, 'success', 'Device Connected'],
    ['device_update', { deviceId: 1, status: 'offline' }, 'warning', 'Device Disconnected'],
    ['device_update', { deviceId: 1, status: 'loggedin' }, 'info', 'User Logged In'],
    ['deployment_update', { deploymentId: 3, status: 'completed' }, 'success', 'Deployment Complete'],
    ['deployment_update', { deploymentId: 3, status: 'failed' }, 'error', 'Deployment Failed'],
    [
      'step_update',
      { stepOrder: 2, stepName: 'Install', status: 'failed' },
      'error',
      'Deployment Step Failed',
    ],
  ])('%s %j → %s %s', (type, payload, toastType, title) => {
    expect(notificationFor({ type, payload })).toMatchObject({ type: toastType, title });
  });

  it('expires non-errors after 5 s and keeps errors until dismissed', () => {
    expect(notificationFor({ type: 'device_update', payload: { status: 'online' } })?.duration).toBe(5000);
    expect(notificationFor({ type: 'deployment_update', payload: { status: 'failed' } })?.duration).toBe(0);
  });

  it('stays quiet for inventory reports and for one device within a job', () => {
    expect(
      notificationFor({ type: 'device_update', payload: { status: 'online', inventory: ['software'] } }),
    ).toBeNull();
    expect(
      notificationFor({
        type: 'deployment_update',
        payload: { deploymentId: 1, deviceDeploymentId: 4, status: 'failed' },
      }),
    ).toBeNull();
    expect(
      notificationFor({
        type: 'deployment_update',
        payload: { deploymentId: 1, jobName: 'Roll out 7-Zip', status: 'completed' },
      }),
    ).toMatchObject({
      message: 'Roll out 7-Zip',
    });
  });

  it('ignores other changes', () => {
    expect(notificationFor({ type: 'device_update', payload: { status: 'error' } })).toBeNull();
    expect(notificationFor({ type: 'step_update', payload: { status: 'completed' } })).toBeNull();
    expect(notificationFor({ type: 'connection_status', payload: {} })).toBeNull();
  });
});
