import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ALERTS_KEY } from '@outpost/contract/live';
import { alertsKey } from '../lib/api/alerts';
import { useUser } from '../lib/auth';
import { useLiveMessages, useLiveSocket, useSubscriptions } from '../lib/socket';

// docs/product/monitoring.md#the-alerts-page — the shell holds the `alerts` subscription while
// signed in: every alert_update refetches what is shown of alerts (the list, the counts of the
// navigation badge and the dashboard tile, the device badges), and the critical-alert toast
// (live-notifications) hears the same events.
export function AlertsWatch() {
  const queryClient = useQueryClient();
  const user = useUser();
  const { status } = useLiveSocket();
  useSubscriptions([ALERTS_KEY]);
  // after a reconnect, what changed while the socket was away is fetched again
  useEffect(() => {
    if (status === 'connected') {
      void queryClient.invalidateQueries({ queryKey: alertsKey(user.tenant_id) });
    }
  }, [status, queryClient, user.tenant_id]);
  useLiveMessages((event) => {
    if (event.type === 'alert_update') {
      void queryClient.invalidateQueries({ queryKey: alertsKey(user.tenant_id) });
    }
  });
  return null;
}
