import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { useInvalidateDeployments } from '../lib/api/deployments';
import { DeployDialogContext } from '../lib/deploy-dialog';
import type { DeployDialogRequest } from '../lib/deploy-dialog';
import { useDeploymentWatch } from './deployment-watch';

// The one deploy dialog of the signed-in shell (docs/product/deployments.md#deploy-dialog): screens open it
// through useDeployDialog() with what they preselect. It is loaded the first time it opens.
const DeployDialog = lazy(() => import('../features/deployments/components/deploy-dialog'));

export function DeployDialogHost({ children }: { children: ReactNode }) {
  const [request, setRequest] = useState<DeployDialogRequest | null>(null);
  const [opening, setOpening] = useState(0);
  const watch = useDeploymentWatch();
  const invalidate = useInvalidateDeployments();

  const openDeployDialog = useCallback((next: DeployDialogRequest) => {
    setRequest(next);
    setOpening((n) => n + 1);
  }, []);
  const api = useMemo(() => ({ openDeployDialog }), [openDeployDialog]);

  const onCreated = (jobs: DeploymentJob[]) => {
    watch(jobs);
    void invalidate();
  };

  return (
    <DeployDialogContext.Provider value={api}>
      {children}
      {request && (
        <Suspense fallback={null}>
          <DeployDialog
            key={opening}
            isOpen
            onClose={() => setRequest(null)}
            initialPackages={request.packages}
            initialDevices={request.devices}
            initialGroup={request.group}
            onCreated={onCreated}
            onSuccess={request.onSuccess}
          />
        </Suspense>
      )}
    </DeployDialogContext.Provider>
  );
}
