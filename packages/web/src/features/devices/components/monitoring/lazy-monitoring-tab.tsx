import { lazy, Suspense } from 'react';
import type { Device } from '@outpost/contract/devices';
import { Spinner } from '../../../../components/ui/spinner';

// docs/product/monitoring.md#the-monitoring-tab: the tab's charts load with the tab, not with the
// device page (their own chunk).
const MonitoringTab = lazy(() => import('./monitoring-tab'));

export function LazyMonitoringTab({ device }: { device: Device }) {
  return (
    <Suspense
      fallback={
        <div className="flex justify-center py-16">
          <Spinner className="size-6 text-indigo-600 dark:text-indigo-400" label="Loading monitoring" />
        </div>
      }
    >
      <MonitoringTab device={device} />
    </Suspense>
  );
}
