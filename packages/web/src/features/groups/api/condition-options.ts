import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

// The names the condition builder offers for tags and custom fields. Both lists belong to their
// own areas (docs/product/device-sets.md#tags, #custom-fields); the builder reads them leniently
// (a list, or a page of one) and falls back to typing an id or a key while they are unavailable.

type Named = { id: number; name: string; key?: string };

function rowsOf(value: unknown): Named[] {
  const list = Array.isArray(value)
    ? value
    : value && typeof value === 'object' && Array.isArray((value as { data?: unknown }).data)
      ? (value as { data: unknown[] }).data
      : [];
  return list.filter(
    (r): r is Named =>
      typeof r === 'object' &&
      r !== null &&
      typeof (r as Named).id === 'number' &&
      typeof (r as Named).name === 'string',
  );
}

function useNamedList(path: string, kind: string) {
  const user = useUser();
  return useQuery({
    queryKey: ['group-condition-options', kind, user.tenant_id] as const,
    queryFn: async ({ signal }) => rowsOf(await api.get<unknown>(path, { page: 1, limit: 200 }, signal)),
    staleTime: 60_000,
    retry: false,
  });
}

export const useTagOptions = () => useNamedList('/customer/tags', 'tags');
export const useFieldOptions = () => useNamedList('/customer/custom-fields', 'fields');
