import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListData } from '@outpost/contract/envelope';
import type { Webhook, WebhookCreateBody, WebhookCreated, WebhookDelivery } from '@outpost/contract/webhooks';
import { api } from '../api-client';
import { useUser } from '../auth';

// Event webhooks and their delivery logs (docs/product/webhooks.md): one cache entry per tenant
// for the subscriptions, one per subscription and page for its log.

const webhooksKey = (tenantId: number) => ['webhooks', tenantId] as const;
const deliveriesKey = (tenantId: number, id: number, page: number) =>
  [...webhooksKey(tenantId), id, 'deliveries', page] as const;

export function useWebhooks() {
  const user = useUser();
  return useQuery({
    queryKey: webhooksKey(user.tenant_id),
    queryFn: ({ signal }) => api.get<{ data: Webhook[] }>('/customer/webhooks', undefined, signal),
    select: (r) => r.data,
  });
}

/** A pending delivery about to be tried (not one waiting out a backoff of minutes). */
const isDueSoon = (d: WebhookDelivery, now: number) =>
  d.status === 'pending' && (d.next_attempt_at === null || Date.parse(d.next_attempt_at) - now < 15_000);

/** One page of the log; it refreshes itself while one of its deliveries is about to be tried. */
export function useWebhookDeliveries(id: number | null, page: number) {
  const user = useUser();
  return useQuery({
    queryKey: deliveriesKey(user.tenant_id, id ?? 0, page),
    queryFn: ({ signal }) =>
      api.get<ListData<WebhookDelivery>>(`/customer/webhooks/${id}/deliveries`, { page }, signal),
    enabled: id !== null,
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((d) => isDueSoon(d, Date.now())) ? 2000 : false),
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () => queryClient.invalidateQueries({ queryKey: webhooksKey(user.tenant_id) });
}

export function useSaveWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: WebhookCreateBody }) =>
      id === null
        ? api.post<WebhookCreated>('/customer/webhooks', body)
        : api.put<WebhookCreated>(`/customer/webhooks/${id}`, body),
    onSettled: invalidate,
  });
}

export function useDeleteWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: number) => api.delete<{ id: number }>(`/customer/webhooks/${id}`),
    onSettled: invalidate,
  });
}

/** Send test, or a delivery again: the log and the last delivery follow. */
export function useSendToWebhook() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, redeliver }: { id: number; redeliver?: number }) =>
      api.post<{ delivery_id: number }>(
        redeliver === undefined
          ? `/customer/webhooks/${id}/test`
          : `/customer/webhooks/${id}/deliveries/${redeliver}/redeliver`,
      ),
    onSettled: invalidate,
  });
}
