import { useEffect, useRef } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import type { DeploymentJobDetail } from '@outpost/contract/deployments';
import { isJobActive } from '@outpost/contract/deployments';
import { deploymentKey, deviceKey } from '@outpost/contract/live';
import { deploymentDetailKey } from '../api/get-deployment';
import { useUser } from '../../../lib/auth';
import { useLiveMessages, useSubscriptions } from '../../../lib/socket';
import { applyDetailUpdate, applyStepToDevice } from './live-jobs';

/** After live changes, the details are fetched again once things settle, to take the server's word. */
const RECONCILE_AFTER_MS = 1500;

/**
 * Keeps a deployment's cached details live (docs/product/deployments.md#job-statuses): job and step updates change
 * them in place, a device's new name or address shows at once, and after a change of status or
 * of what the job waits for, `refetch` takes the server's full picture.
 */
export function useLiveDetail(job: DeploymentJobDetail, refetch: () => void) {
  const user = useUser();
  const queryClient = useQueryClient();
  const key = deploymentDetailKey(user.tenant_id, job.id);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  // docs/product/deployments.md#job-statuses — 'deployment:{id}' and 'device:{guid}' for pending or running items.
  const keys = [
    ...(isJobActive(job.status) ? [deploymentKey(job.id)] : []),
    ...job.deployments
      .filter((d) => isJobActive(d.status) && d.device_guid)
      .map((d) => deviceKey(d.device_guid!)),
  ];
  useSubscriptions(keys);

  useLiveMessages((event) => {
    const update = (fn: (old: DeploymentJobDetail) => DeploymentJobDetail) =>
      queryClient.setQueryData(key, (old: DeploymentJobDetail | undefined) => (old ? fn(old) : old));
    switch (event.type) {
      case 'deployment_update': {
        if (event.payload.deploymentId !== job.id) {
          return;
        }
        update((old) => applyDetailUpdate(old, event.payload));
        // Statuses and counters are shown at once; the server's full picture follows.
        clearTimeout(timer.current);
        timer.current = setTimeout(refetch, RECONCILE_AFTER_MS);
        return;
      }
      case 'step_update':
        if (event.payload.deploymentId === job.id) {
          update((old) => applyStepToDevice(old, event.payload));
        }
        return;
      case 'device_update': {
        const u = event.payload;
        update((old) => ({
          ...old,
          deployments: old.deployments.map((d) =>
            d.device_guid !== u.deviceId
              ? d
              : { ...d, hostname: u.hostname ?? d.hostname, ip_address: u.ipAddress ?? d.ip_address },
          ),
        }));
        // a device went offline or came back: the server says what the job waits for now
        const row = job.deployments.find((d) => d.device_guid === u.deviceId);
        if (row && (u.status === 'offline') !== Boolean(row.offline_wait)) {
          clearTimeout(timer.current);
          timer.current = setTimeout(refetch, RECONCILE_AFTER_MS);
        }
        return;
      }
      case 'connection_status':
      case 'alert_update':
        return;
    }
  });
}
