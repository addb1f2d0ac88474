import { useEffect } from 'react';
import type { QueryKey } from '@tanstack/react-query';
import { useQueryClient } from '@tanstack/react-query';
import type { DeploymentJob, DeploymentListResponse } from '@outpost/contract/deployments';
import { isJobActive } from '@outpost/contract/deployments';
import { deploymentKey } from '@outpost/contract/live';
import { noteJobs } from '../../../lib/deployment-status';
import { useLiveMessages, useSubscriptions } from '../../../lib/socket';
import { applyJobUpdate } from './live-jobs';

/**
 * docs/product/deployments.md#job-statuses — the list subscribes to 'deployment:{id}' for each pending or running job
 * and changes the row in place, in the cached page under `key`.
 */
export function useLiveDeploymentRows(key: QueryKey, rows: readonly DeploymentJob[] | undefined) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (rows) {
      noteJobs(rows);
    }
  }, [rows]);
  useSubscriptions((rows ?? []).filter((j) => isJobActive(j.status)).map((j) => deploymentKey(j.id)));
  useLiveMessages((event) => {
    if (event.type !== 'deployment_update') {
      return;
    }
    queryClient.setQueryData(key, (old: DeploymentListResponse | undefined) =>
      old ? { ...old, data: old.data.map((j) => applyJobUpdate(j, event.payload)) } : old,
    );
  });
}
