import { LIVE_NOTIFICATION_EXPIRY_MS } from '@outpost/contract/limits';
import { useToast } from '../components/ui/toast';
import type { ToastInput } from '../components/ui/toast';
import { useLiveMessages } from '../lib/socket';
import type { LiveMessage } from '../lib/socket';

// spec: core §4 Live notification rules. Non-error notifications vanish after 5 s; errors stay
// until dismissed; the toast stack keeps the newest ones.
export function notificationFor(message: LiveMessage): ToastInput | null {
  const p = message.payload ?? {};
  const status = typeof p.status === 'string' ? p.status : undefined;
  const name =
    (typeof p.hostname === 'string' && p.hostname) ||
    (typeof p.deviceName === 'string' && p.deviceName) ||
    (p.deviceId !== undefined ? `Device ${String(p.deviceId)}` : undefined);
  const jobName =
    (typeof p.jobName === 'string' && p.jobName) ||
    (p.deploymentId !== undefined ? `Deployment ${String(p.deploymentId)}` : '');
  const expiring = { duration: LIVE_NOTIFICATION_EXPIRY_MS };
  switch (message.type) {
    case 'device_update':
      // An inventory report is not a change of presence.
      if (Array.isArray(p.inventory)) {
        return null;
      }
      if (status === 'online') {
        return {
          type: 'success',
          title: 'Device Connected',
          message: name ? `${name} is online` : undefined,
          ...expiring,
        };
      }
      if (status === 'offline') {
        return {
          type: 'warning',
          title: 'Device Disconnected',
          message: name ? `${name} went offline` : undefined,
          ...expiring,
        };
      }
      if (status === 'loggedin') {
        return {
          type: 'info',
          title: 'User Logged In',
          message: name ? `A user signed in on ${name}` : undefined,
          ...expiring,
        };
      }
      return null;
    case 'deployment_update':
      // One device's part of a job is not the job.
      if (p.deviceDeploymentId !== undefined) {
        return null;
      }
      if (status === 'completed') {
        return { type: 'success', title: 'Deployment Complete', message: jobName, ...expiring };
      }
      if (status === 'failed') {
        return { type: 'error', title: 'Deployment Failed', message: jobName, duration: 0 };
      }
      return null;
    case 'step_update':
      if (status === 'failed') {
        const step = typeof p.stepName === 'string' ? p.stepName : 'A step';
        return { type: 'error', title: 'Deployment Step Failed', message: `${step} failed`, duration: 0 };
      }
      return null;
    default:
      return null;
  }
}

export function LiveNotifications() {
  const toast = useToast();
  useLiveMessages((message) => {
    const notification = notificationFor(message);
    if (notification) {
      toast.show(notification);
    }
  });
  return null;
}
