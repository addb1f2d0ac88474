import { useCallback, useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { isJobActive } from '@outpost/contract/deployments';
import { deploymentKey } from '@outpost/contract/live';
import { deploymentsKey, getDeployments } from '../lib/api/deployments';
import { useUser } from '../lib/auth';
import { noteJobs } from '../lib/deployment-status';
import { useLiveMessages, useSubscriptions } from '../lib/socket';

// Deployment notifications on every page (docs/product/deployments.md#job-statuses, docs/product/live-updates.md#notifications). The socket only carries
// deployment_update and step_update for jobs it is subscribed to, so the shell subscribes to the
// jobs that can still change: the pending and running ones (fetched when the shell opens and once
// a minute, so jobs other users start are announced too) and every job created here. A job that
// reaches completed, failed or cancelled is dropped. Screens that show jobs subscribe as well;
// the socket counts holders, so one leaving does not cut the other off.

export const ACTIVE_JOBS_REFRESH_MS = 60_000;
const ACTIVE_JOBS_LIMIT = 100;

export function useDeploymentWatch() {
  const user = useUser();
  const active = useQuery({
    queryKey: [...deploymentsKey(user.tenant_id), 'active'] as const,
    queryFn: async ({ signal }) => {
      const [running, pending] = await Promise.all([
        getDeployments({ page: 1, limit: ACTIVE_JOBS_LIMIT, status: 'running' }, signal),
        getDeployments({ page: 1, limit: ACTIVE_JOBS_LIMIT, status: 'pending' }, signal),
      ]);
      return [...running.data, ...pending.data];
    },
    refetchInterval: ACTIVE_JOBS_REFRESH_MS,
    // Without the deployments API (an older server) the shell stays quiet rather than retrying.
    retry: false,
  });

  const [created, setCreated] = useState<ReadonlySet<number>>(new Set());
  const [finished, setFinished] = useState<ReadonlySet<number>>(new Set());

  const watch = useCallback((jobs: readonly DeploymentJob[]) => {
    noteJobs(jobs);
    const ids = jobs.filter((j) => isJobActive(j.status)).map((j) => j.id);
    if (ids.length > 0) {
      setCreated((s) => new Set([...s, ...ids]));
    }
  }, []);

  useEffect(() => {
    if (active.data) {
      noteJobs(active.data);
    }
  }, [active.data]);

  useLiveMessages((event) => {
    if (event.type !== 'deployment_update') {
      return;
    }
    const p = event.payload;
    if (p.status && !isJobActive(p.status)) {
      setFinished((s) => (s.has(p.deploymentId) ? s : new Set([...s, p.deploymentId])));
    }
  });

  const watched = new Set([...(active.data ?? []).map((j) => j.id), ...created]);
  useSubscriptions(
    [...watched]
      .filter((id) => !finished.has(id))
      .sort((a, b) => a - b)
      .map((id) => deploymentKey(id)),
  );
  return watch;
}
