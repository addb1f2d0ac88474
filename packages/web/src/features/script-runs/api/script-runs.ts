import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ScriptRunDetail, ScriptRunsPage } from '@outpost/contract/script-runs';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// docs/product/scripts.md#runs — the history of script runs and one run's results.

export const scriptRunsKey = (tenantId: number) => ['script-runs', tenantId] as const;
export const scriptRunKey = (tenantId: number, id: number) =>
  [...scriptRunsKey(tenantId), 'detail', id] as const;

export type ScriptRunsParams = { page: number; limit: number; script_id?: number };

export function useScriptRuns(params: ScriptRunsParams) {
  const user = useUser();
  return useQuery({
    queryKey: [...scriptRunsKey(user.tenant_id), 'list', params],
    queryFn: ({ signal }) => api.get<ScriptRunsPage>('/customer/script-runs', params, signal),
    placeholderData: keepPreviousData,
  });
}

export function useScriptRun(id: number) {
  const user = useUser();
  return useQuery({
    queryKey: scriptRunKey(user.tenant_id, id),
    queryFn: ({ signal }) => api.get<ScriptRunDetail>(`/customer/script-runs/${id}`, undefined, signal),
    enabled: Number.isInteger(id) && id > 0,
  });
}

export function useCancelScriptRun() {
  const user = useUser();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ScriptRunDetail>(`/customer/script-runs/${id}/cancel`),
    onSettled: () => client.invalidateQueries({ queryKey: scriptRunsKey(user.tenant_id) }),
  });
}
