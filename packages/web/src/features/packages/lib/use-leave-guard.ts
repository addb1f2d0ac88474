import { useEffect, useState } from 'react';
import { useBlocker, useNavigate } from 'react-router';

/**
 * Leaving the builder with unsaved changes asks first (in-app navigation and closing the tab).
 * After a save, the builder leaves for the package list once the blocker has seen that nothing is
 * unsaved any more.
 */
export function useLeaveGuard(isChanged: boolean) {
  const navigate = useNavigate();
  const [isSaved, setIsSaved] = useState(false);
  const hasChanges = !isSaved && isChanged;
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => hasChanges && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    if (isSaved) {
      void navigate('/packages');
    }
  }, [isSaved, navigate]);
  useEffect(() => {
    if (!hasChanges) {
      return;
    }
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [hasChanges]);

  return { hasChanges, blocker, markSaved: () => setIsSaved(true) };
}
