import { useQuery } from '@tanstack/react-query';
import type {
  ScriptDetail,
  ScriptExport,
  ScriptImportResult,
  ScriptInput,
  ScriptVersionDetail,
  ScriptVersionSummary,
} from '@outpost/contract/scripts';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { scriptsKey } from '../../../lib/api/scripts';

// The library's own calls (docs/product/scripts.md#calls): save, delete, versions, export, import.

export type ScriptSaveBody = Omit<ScriptInput, 'params'> & {
  params: (Omit<ScriptInput['params'][number], 'keep_secret'> & { keep_secret?: boolean })[];
};

export const createScript = (body: ScriptSaveBody) => api.post<ScriptDetail>('/customer/scripts', body);
export const updateScript = (id: number, body: ScriptSaveBody) =>
  api.put<ScriptDetail>(`/customer/scripts/${id}`, body);
export const deleteScript = (id: number) => api.delete<{ message: string }>(`/customer/scripts/${id}`);
export const importScripts = (doc: unknown) => api.post<ScriptImportResult>('/customer/scripts/import', doc);
export const exportScripts = (ids: number[]) =>
  api.get<ScriptExport>('/customer/scripts/export', ids.length > 0 ? { ids: ids.join(',') } : undefined);

export function useScriptVersions(id: number | null) {
  const user = useUser();
  return useQuery({
    queryKey: [...scriptsKey(user.tenant_id), 'versions', id] as const,
    queryFn: ({ signal }) =>
      api.get<ScriptVersionSummary[]>(`/customer/scripts/${id}/versions`, undefined, signal),
    enabled: id !== null,
  });
}

export function useScriptVersion(id: number, version: number | null) {
  const user = useUser();
  return useQuery({
    queryKey: [...scriptsKey(user.tenant_id), 'version', id, version] as const,
    queryFn: ({ signal }) =>
      api.get<ScriptVersionDetail>(`/customer/scripts/${id}/versions/${version}`, undefined, signal),
    enabled: version !== null,
    staleTime: Infinity,
  });
}

/** Saves a JSON document as a file download. */
export function downloadJson(doc: unknown, filename: string) {
  const url = URL.createObjectURL(new Blob([JSON.stringify(doc, null, 2)], { type: 'application/json' }));
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.click();
  URL.revokeObjectURL(url);
}
