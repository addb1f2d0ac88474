import { useEffect, useState } from 'react';

/** Re-renders every `ms` while mounted, so relative times and running durations move on. */
export function useTicker(ms = 30_000) {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), ms);
    return () => clearInterval(timer);
  }, [ms]);
}
