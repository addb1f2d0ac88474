import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ListData } from '@outpost/contract/envelope';
import type {
  ScriptCategory,
  ScriptDetail,
  ScriptLanguage,
  ScriptOs,
  ScriptRunCreatedResponse,
  ScriptRunInput,
  ScriptSummary,
} from '@outpost/contract/scripts';
import { api } from '../api-client';
import { useUser } from '../auth';

// The script library's calls several screens share (docs/product/scripts.md#calls): the library
// and its editor, and the Run dialog the devices screens open too.

export type ScriptListParams = {
  page: number;
  limit: number;
  search: string;
  category: string;
  language: ScriptLanguage | '';
  os: ScriptOs | '';
};

export const scriptsKey = (tenantId: number) => ['scripts', tenantId] as const;

export const getScripts = (params: ScriptListParams, signal?: AbortSignal) =>
  api.get<ListData<ScriptSummary>>(
    '/customer/scripts',
    {
      page: params.page,
      limit: params.limit,
      search: params.search.trim(),
      category: params.category,
      language: params.language,
      os: params.os,
    },
    signal,
  );

export const getScriptsQueryOptions = (tenantId: number, params: ScriptListParams) =>
  queryOptions({
    queryKey: [...scriptsKey(tenantId), 'list', params] as const,
    queryFn: ({ signal }) => getScripts(params, signal),
    placeholderData: keepPreviousData,
  });

export function useScripts(params: ScriptListParams, isEnabled = true) {
  const user = useUser();
  return useQuery({ ...getScriptsQueryOptions(user.tenant_id, params), enabled: isEnabled });
}

export const getScript = (id: number, signal?: AbortSignal) =>
  api.get<ScriptDetail>(`/customer/scripts/${id}`, undefined, signal);

export const getScriptQueryOptions = (tenantId: number, id: number) =>
  queryOptions({
    queryKey: [...scriptsKey(tenantId), 'detail', id] as const,
    queryFn: ({ signal }) => getScript(id, signal),
  });

export function useScript(id: number | null) {
  const user = useUser();
  return useQuery({ ...getScriptQueryOptions(user.tenant_id, id ?? 0), enabled: id !== null && id > 0 });
}

export function useScriptCategories() {
  const user = useUser();
  return useQuery({
    queryKey: [...scriptsKey(user.tenant_id), 'categories'] as const,
    queryFn: ({ signal }) => api.get<ScriptCategory[]>('/customer/scripts/categories', undefined, signal),
  });
}

/** POST /customer/scripts/{id}/runs: the run's job, and how many devices it reaches or skipped. */
export const startScriptRun = (id: number, body: ScriptRunInput) =>
  api.post<ScriptRunCreatedResponse>(`/customer/scripts/${id}/runs`, body);

/** Where a run's results are shown (the runs screens). */
export const scriptRunPath = (jobId: number) => `/scripts/runs/${jobId}`;
