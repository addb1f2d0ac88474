import { lazy, Suspense } from 'react';
import type { Device } from '@outpost/contract/devices';
import { Spinner } from '../../../../components/ui/spinner';
import { useTerminalAccess } from '../../api/remote-terminal';

// docs/product/remote-access.md#terminal: the terminal (xterm.js) loads with the tab, not with
// the device page (its own chunk).
const TerminalTab = lazy(() => import('./terminal-tab'));

/** The Terminal tab shows when the tenant has the terminal on and allows the caller's role. */
export function useTerminalTabAllowed(): boolean {
  const access = useTerminalAccess().data;
  return Boolean(access?.terminal_enabled && access.caller_allowed);
}

export function LazyTerminalTab({ device }: { device: Device }) {
  return (
    <Suspense
      fallback={
        <div className="flex justify-center py-16">
          <Spinner className="size-6 text-indigo-600 dark:text-indigo-400" label="Loading the terminal" />
        </div>
      }
    >
      <TerminalTab device={device} />
    </Suspense>
  );
}
