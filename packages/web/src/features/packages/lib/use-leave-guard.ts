import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * Leaving with unsaved changes asks first: in-app navigation is blocked until the returned
 * blocker proceeds, and closing the tab asks the browser's question.
 */
export function useLeaveGuard(hasChanges: boolean) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => hasChanges && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (!hasChanges) {
      return;
    }
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [hasChanges]);
  return blocker;
}
