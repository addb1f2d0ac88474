import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type {
  ActivityChartResponse,
  ActivityLogResponse,
  ActivityOverviewPage,
  PagedOverviewQuery,
  WeeklySummaryResponse,
} from '@outpost/contract/activity';
import { ACTIVITY_WINDOW_DAYS } from '@outpost/contract/activity';
import { messages } from '@outpost/contract/messages';
import { ApiError, api } from '../api-client';
import { useUser } from '../auth';

// Device activity calls (docs/product/activity.md#calls device activity device activity), shared by
// the device detail's Activity tab and the Device Activity overview: one fetcher, one cache entry
// per tenant and arguments.

/**
 * The text to show under an activity load failure (docs/product/activity.md#audit-log): the server's
 * own error text when it sent one, otherwise the product's message (not 'HTTP error! status: N' or
 * the browser's network error).
 */
export function activityErrorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.message && error.message !== messages.httpError(error.status)) {
    return error.message;
  }
  return fallback;
}

export const activityKey = (tenantId: number) => ['activity', tenantId] as const;
export const deviceActivityKey = (tenantId: number, idOrGuid: string) =>
  [...activityKey(tenantId), 'device', idOrGuid] as const;

/** The device tab's figures move with the clock (the current hour fills up): re-read each minute. */
const DEVICE_REFRESH_MS = 60_000;

const devicePath = (idOrGuid: string) => `/customer/device-activity/device/${encodeURIComponent(idOrGuid)}`;

export const getDeviceActivityLog = (idOrGuid: string, days: number, signal?: AbortSignal) =>
  api.get<ActivityLogResponse>(devicePath(idOrGuid), { days }, signal);

export const getDeviceActivityChart = (idOrGuid: string, signal?: AbortSignal) =>
  api.get<ActivityChartResponse>(`${devicePath(idOrGuid)}/chart`, undefined, signal);

export const getDeviceWeeklySummary = (idOrGuid: string, signal?: AbortSignal) =>
  api.get<WeeklySummaryResponse>(`${devicePath(idOrGuid)}/weekly-summary`, undefined, signal);

/**
 * One page of the overview, filtered and sorted by the server, with the whole scope's counters
 * (docs/decisions/2026-11-26-device-activity-overview.md; `page` is always sent, which selects the paged answer).
 */
export const getActivityOverviewPage = (query: PagedOverviewQuery, signal?: AbortSignal) =>
  api.get<ActivityOverviewPage>('/customer/device-activity/overview', { ...query }, signal);

export const getDeviceActivityLogQueryOptions = (
  tenantId: number,
  idOrGuid: string,
  days: number = ACTIVITY_WINDOW_DAYS,
) =>
  queryOptions({
    queryKey: [...deviceActivityKey(tenantId, idOrGuid), 'log', days] as const,
    queryFn: ({ signal }) => getDeviceActivityLog(idOrGuid, days, signal),
    refetchInterval: DEVICE_REFRESH_MS,
  });

export const getDeviceActivityChartQueryOptions = (tenantId: number, idOrGuid: string) =>
  queryOptions({
    queryKey: [...deviceActivityKey(tenantId, idOrGuid), 'chart'] as const,
    queryFn: ({ signal }) => getDeviceActivityChart(idOrGuid, signal),
    refetchInterval: DEVICE_REFRESH_MS,
  });

export const getDeviceWeeklySummaryQueryOptions = (tenantId: number, idOrGuid: string) =>
  queryOptions({
    queryKey: [...deviceActivityKey(tenantId, idOrGuid), 'weekly-summary'] as const,
    queryFn: ({ signal }) => getDeviceWeeklySummary(idOrGuid, signal),
    refetchInterval: DEVICE_REFRESH_MS,
  });

export const activityOverviewKey = (tenantId: number) => [...activityKey(tenantId), 'overview'] as const;

export const getActivityOverviewPageQueryOptions = (tenantId: number, query: PagedOverviewQuery) =>
  queryOptions({
    queryKey: [...activityOverviewKey(tenantId), query] as const,
    queryFn: ({ signal }) => getActivityOverviewPage(query, signal),
    // the previous page stays on screen while the next one loads (filters, sorting, pages), but
    // never another tenant's
    placeholderData: (previous, previousQuery) =>
      previousQuery?.queryKey[1] === tenantId ? keepPreviousData(previous) : undefined,
  });

export function useDeviceActivityLog(idOrGuid: string, days: number = ACTIVITY_WINDOW_DAYS) {
  const user = useUser();
  return useQuery(getDeviceActivityLogQueryOptions(user.tenant_id, idOrGuid, days));
}

export function useDeviceActivityChart(idOrGuid: string) {
  const user = useUser();
  return useQuery(getDeviceActivityChartQueryOptions(user.tenant_id, idOrGuid));
}

export function useDeviceWeeklySummary(idOrGuid: string) {
  const user = useUser();
  return useQuery(getDeviceWeeklySummaryQueryOptions(user.tenant_id, idOrGuid));
}

export function useActivityOverviewPage(query: PagedOverviewQuery) {
  const user = useUser();
  return useQuery(getActivityOverviewPageQueryOptions(user.tenant_id, query));
}
