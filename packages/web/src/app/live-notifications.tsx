import type { DeviceStatus } from '@outpost/contract/devices';
import { LIVE_NOTIFICATION_EXPIRY_MS } from '@outpost/contract/limits';
import type { PortalEvent } from '@outpost/contract/live';
import { useToast } from '../components/ui/toast';
import type { ToastInput } from '../components/ui/toast';
import { swapDeviceStatus } from '../lib/device-presence';
import { useLiveMessages } from '../lib/socket';

// spec: core §4 Live notification rules. Non-error notifications vanish after 5 s; errors stay
// until dismissed (a failed deployment must not slip by unseen); the toast stack keeps the newest.
//
// A device_update carries the new status only; `previous` is the status the portal knew before.
// Only a change from offline to online or logged in is a connection (an unknown previous status
// counts as offline for online): a user signing out (loggedin → online) or a fault clearing
// (error → online) is not, and a sign-in on a connected device is 'User Logged In'.
export function notificationFor(event: PortalEvent, previous?: DeviceStatus): ToastInput | null {
  const expiring = { duration: LIVE_NOTIFICATION_EXPIRY_MS };
  switch (event.type) {
    case 'device_update': {
      const p = event.payload;
      // An inventory report is not a change of presence.
      if (p.inventory || p.status === previous) {
        return null;
      }
      const name = p.hostname || `Device ${p.deviceId}`;
      const connected = { type: 'success', title: 'Device Connected', message: `${name} is online` } as const;
      switch (p.status) {
        case 'offline':
          return {
            type: 'warning',
            title: 'Device Disconnected',
            message: `${name} went offline`,
            ...expiring,
          };
        case 'online':
          return previous === undefined || previous === 'offline' ? { ...connected, ...expiring } : null;
        case 'loggedin':
          return previous === 'offline'
            ? { ...connected, ...expiring }
            : { type: 'info', title: 'User Logged In', message: `A user signed in on ${name}`, ...expiring };
        case 'error':
          return null;
      }
      return null;
    }
    case 'deployment_update': {
      const p = event.payload;
      // One device's part of a job is not the job.
      if (p.deviceDeploymentId !== undefined) {
        return null;
      }
      const jobName = p.jobName || `Deployment ${p.deploymentId}`;
      if (p.status === 'completed') {
        return { type: 'success', title: 'Deployment Complete', message: jobName, ...expiring };
      }
      if (p.status === 'failed') {
        return { type: 'error', title: 'Deployment Failed', message: jobName, duration: 0 };
      }
      return null;
    }
    case 'step_update': {
      const p = event.payload;
      if (p.status === 'failed') {
        const step = p.stepName ?? 'A step';
        return { type: 'error', title: 'Deployment Step Failed', message: `${step} failed`, duration: 0 };
      }
      return null;
    }
    case 'connection_status':
      return null;
  }
}

export function LiveNotifications() {
  const toast = useToast();
  useLiveMessages((event) => {
    const previous =
      event.type === 'device_update' && !event.payload.inventory
        ? swapDeviceStatus(event.payload.deviceId, event.payload.status)
        : undefined;
    const notification = notificationFor(event, previous);
    if (notification) {
      toast.show(notification);
    }
  });
  return null;
}
