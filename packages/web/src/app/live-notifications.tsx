import type { JobStatus } from '@outpost/contract/deployments';
import type { DeviceStatus } from '@outpost/contract/devices';
import { LIVE_NOTIFICATION_EXPIRY_MS } from '@outpost/contract/limits';
import type { PortalEvent } from '@outpost/contract/live';
import type { RolloutState } from '@outpost/contract/rollouts';
import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useToast } from '../components/ui/toast';
import type { ToastInput } from '../components/ui/toast';
import { fetchedRolloutStateOf, jobNameOf, noteJobName, swapJobStatus } from '../lib/deployment-status';
import { swapDeviceStatus } from '../lib/device-presence';
import { useLiveMessages } from '../lib/socket';

// docs/product/live-updates.md#notifications. Non-error notifications vanish after 5 s; errors stay
// until dismissed (a failed deployment must not slip by unseen); the toast stack keeps the newest.
//
// A device_update carries the new status only; `previous` is the status the portal knew before.
// Only a change from offline to online or logged in is a connection (an unknown previous status
// counts as offline for online): a user signing out (loggedin → online) or a fault clearing
// (error → online) is not, and a sign-in on a connected device is 'User Logged In'.
export function notificationFor(
  event: PortalEvent,
  previous?: DeviceStatus,
  job: { previous?: JobStatus; name?: string; previousRollout?: RolloutState | null } = {},
): ToastInput | null {
  const previousJob = job.previous;
  const knownJobName = job.name;
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
      // docs/product/rollouts.md#gates — a rollout halting by itself is said to everyone watching, with why; it stays.
      if (p.rollout_state === 'halted' && job.previousRollout !== 'halted') {
        const name = p.jobName || knownJobName || `Deployment ${p.deploymentId}`;
        return {
          type: 'error',
          title: 'Rollout Halted',
          message: p.rollout_reason ? `${name}: ${p.rollout_reason}` : name,
          duration: 0,
        };
      }
      // `status` is the job's (a device's own is `deviceStatus`); an update repeating it (a
      // device moving on, counters changing) is not a change: only the job's changes are announced.
      if (p.status === undefined || p.status === previousJob) {
        return null;
      }
      const jobName = p.jobName || knownJobName || `Deployment ${p.deploymentId}`;
      // docs/product/deployments.md#job-statuses — a toast per change of the job's status. docs/product/live-updates.md#toasts calls the completed
      // one 'Deployment Complete' in its notification list; it is one event, so one toast, with
      // the deployments document's words (the screen that owns jobs).
      switch (p.status) {
        case 'pending':
          return null;
        case 'running':
          return { type: 'info', title: 'Deployment Started', message: jobName, ...expiring };
        case 'completed':
          return { type: 'success', title: 'Deployment Completed', message: jobName, ...expiring };
        case 'failed':
          return { type: 'error', title: 'Deployment Failed', message: jobName, duration: 0 };
        case 'cancelled':
          return { type: 'warning', title: 'Deployment Cancelled', message: jobName, ...expiring };
      }
      return null;
    }
    case 'step_update': {
      const p = event.payload;
      if (p.status === 'failed') {
        const step = p.stepName ?? `Step ${p.stepOrder}`;
        const where = knownJobName ? ` (${knownJobName})` : '';
        return {
          type: 'error',
          title: 'Deployment Step Failed',
          message: `${step} failed${where}${p.errorMessage ? `: ${p.errorMessage}` : ''}`,
          duration: 0,
        };
      }
      return null;
    }
    case 'connection_status':
      return null;
    case 'alert_update': {
      // docs/product/monitoring.md#alerts — a new critical alert is said to everyone watching; it stays
      const { alert, change } = event.payload;
      // a halted rollout has its own toast (above), in its own words
      const isToldElsewhere = alert.condition === 'rollout_halted';
      if (change !== 'opened' || alert.severity !== 'critical' || alert.silenced || isToldElsewhere) {
        return null;
      }
      const where = alert.device ? `${alert.device.hostname}: ` : '';
      return { type: 'error', title: 'Critical Alert', message: `${where}${alert.title}`, duration: 0 };
    }
  }
}

/**
 * A toast about a deployment offers 'View deployment', except on that deployment's own page: it
 * is already on screen.
 */
export function viewDeploymentAction(
  deploymentId: number,
  pathname: string,
  navigate: (to: string) => void,
): ToastInput['action'] {
  const to = `/deployments/${deploymentId}`;
  return pathname.replace(/\/+$/, '') === to
    ? undefined
    : { label: 'View deployment', onClick: () => navigate(to) };
}

/**
 * A critical alert's toast offers 'View alert' (docs/product/monitoring.md#the-alerts-page): the
 * Alerts page, with the alert's device when it has one; nothing while that list is on screen.
 */
export function viewAlertAction(
  deviceGuid: string | null,
  pathname: string,
  navigate: (to: string) => void,
): ToastInput['action'] {
  const to = deviceGuid ? `/alerts?device=${encodeURIComponent(deviceGuid)}` : '/alerts';
  return pathname.replace(/\/+$/, '') === '/alerts'
    ? undefined
    : { label: 'View alert', onClick: () => navigate(to) };
}

export function LiveNotifications() {
  const toast = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  // read when an event arrives, not a reason to subscribe again
  const pathname = useRef(location.pathname);
  useLayoutEffect(() => {
    pathname.current = location.pathname;
  });
  // One 'Deployment Step Failed' toast per job, counting: a step failing on many devices (errors
  // stay until dismissed) would otherwise fill the stack and cover the page.
  const stepFailures = useRef(new Map<number, { toastId: number; count: number }>());
  // each job's last rollout state, so a halt is announced once
  const rolloutStates = useRef(new Map<number, RolloutState | null>());
  useLiveMessages((event) => {
    const previous =
      event.type === 'device_update' && !event.payload.inventory
        ? swapDeviceStatus(event.payload.deviceId, event.payload.status)
        : undefined;
    let job: { previous?: JobStatus; name?: string; previousRollout?: RolloutState | null } = {};
    if (event.type === 'deployment_update') {
      const p = event.payload;
      if (p.jobName) {
        noteJobName(p.deploymentId, p.jobName);
      }
      job = {
        name: jobNameOf(p.deploymentId),
        previous: p.status && swapJobStatus(p.deploymentId, p.status),
        previousRollout: rolloutStates.current.get(p.deploymentId) ?? fetchedRolloutStateOf(p.deploymentId),
      };
      if (p.rollout_state !== undefined) {
        rolloutStates.current.set(p.deploymentId, p.rollout_state);
      }
    } else if (event.type === 'step_update') {
      job = { name: jobNameOf(event.payload.deploymentId) };
    }
    const notification = notificationFor(event, previous, job);
    if (!notification) {
      return;
    }
    if (event.type === 'alert_update') {
      const guid = event.payload.alert.device?.guid ?? null;
      notification.action = viewAlertAction(guid, pathname.current, (to) => void navigate(to));
    }
    if (event.type !== 'deployment_update' && event.type !== 'step_update') {
      toast.show(notification);
      return;
    }
    const id = event.payload.deploymentId;
    notification.action = viewDeploymentAction(id, pathname.current, (to) => void navigate(to));
    if (event.type === 'step_update') {
      const before = stepFailures.current.get(id);
      const count = (before?.count ?? 0) + 1;
      if (before) {
        toast.dismiss(before.toastId);
        notification.message = `${notification.message ?? ''} · ${count} step failures in this deployment`;
      }
      stepFailures.current.set(id, { toastId: toast.show(notification), count });
      return;
    }
    toast.show(notification);
  });
  return null;
}
