import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChannelCreateBody,
  ChannelCreated,
  NotificationChannel,
  NotificationDelivery,
} from '@outpost/contract/notification-channels';
import { api } from '../api-client';
import { useUser } from '../auth';

// Notification channels and their delivery logs (docs/product/monitoring.md#notification-channels):
// one cache entry per tenant for the channels, one per channel for its log.

const channelsKey = (tenantId: number) => ['notification-channels', tenantId] as const;
const deliveriesKey = (tenantId: number, channelId: number) =>
  [...channelsKey(tenantId), channelId, 'deliveries'] as const;

export function useChannels() {
  const user = useUser();
  return useQuery({
    queryKey: channelsKey(user.tenant_id),
    queryFn: ({ signal }) =>
      api.get<{ data: NotificationChannel[] }>('/customer/notification-channels', undefined, signal),
    select: (r) => r.data,
  });
}

/** A pending delivery about to be tried (not one waiting out a backoff of minutes). */
const isDueSoon = (d: NotificationDelivery, now: number) =>
  d.status === 'pending' && (d.next_attempt_at === null || Date.parse(d.next_attempt_at) - now < 15_000);

/** The log refreshes itself while one of its deliveries is about to be tried. */
export function useDeliveries(channelId: number | null) {
  const user = useUser();
  return useQuery({
    queryKey: deliveriesKey(user.tenant_id, channelId ?? 0),
    queryFn: ({ signal }) =>
      api.get<{ data: NotificationDelivery[] }>(
        `/customer/notification-channels/${channelId}/deliveries`,
        undefined,
        signal,
      ),
    select: (r) => r.data,
    enabled: channelId !== null,
    refetchInterval: (q) => (q.state.data?.data.some((d) => isDueSoon(d, Date.now())) ? 2000 : false),
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: channelsKey(user.tenant_id) });
}

export function useSaveChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: ChannelCreateBody }) =>
      id === null
        ? api.post<ChannelCreated>('/customer/notification-channels', body)
        : api.put<ChannelCreated>(`/customer/notification-channels/${id}`, body),
    onSettled: invalidate,
  });
}

export function useDeleteChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number }>(`/customer/notification-channels/${id}`),
    onSettled: invalidate,
  });
}

/** Send test, or a delivery again: the channel's log and its last delivery follow. */
export function useSendToChannel() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, redeliver }: { id: number; redeliver?: number }) =>
      api.post<{ delivery_id: number }>(
        redeliver === undefined
          ? `/customer/notification-channels/${id}/test`
          : `/customer/notification-channels/${id}/deliveries/${redeliver}/redeliver`,
      ),
    onSettled: invalidate,
  });
}
