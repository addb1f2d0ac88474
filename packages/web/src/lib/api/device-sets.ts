import { useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../api-client';
import { useUser } from '../auth';

// The groups and custom fields the device list filters by (docs/product/device-sets.md#device-list-filters).
// Both come from other areas' calls (GET /customer/groups, GET /customer/custom-fields); a server
// without one answers 404, and the list then hides that filter (null here).

export type GroupOption = { id: number; name: string };
export type FieldOption = { key: string; name: string; field_type: string; options: string[] };

const text = (v: unknown, fallback: string) => (typeof v === 'string' ? v : fallback);

/** The rows of a list answer, whether a bare array or a page ({ data: [...] }). */
function rowsOf(body: unknown): Record<string, unknown>[] {
  const rows = Array.isArray(body) ? body : (body as { data?: unknown } | null)?.data;
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
}

/** null when the server has no such call (404): the filter is hidden. */
async function optional<T>(load: () => Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      return null;
    }
    throw err;
  }
}

export function useGroupOptions() {
  const user = useUser();
  return useQuery({
    queryKey: ['groups', user.tenant_id, 'options'] as const,
    queryFn: ({ signal }) =>
      optional(async () =>
        rowsOf(await api.get<unknown>('/customer/groups', { limit: 100 }, signal)).map((g): GroupOption => ({
          id: Number(g.id),
          name: text(g.name, `Group ${Number(g.id)}`),
        })),
      ),
    staleTime: 60_000,
    retry: false,
  });
}

export function useFieldOptions() {
  const user = useUser();
  return useQuery({
    queryKey: ['custom-fields', user.tenant_id, 'options'] as const,
    queryFn: ({ signal }) =>
      optional(async () =>
        rowsOf(await api.get<unknown>('/customer/custom-fields', undefined, signal)).map(
          (f): FieldOption => ({
            key: text(f.key, ''),
            name: text(f.name, text(f.key, '')),
            field_type: text(f.field_type ?? f.fieldType, 'text'),
            options: Array.isArray(f.options) ? f.options.map((o) => text(o, '')) : [],
          }),
        ),
      ),
    staleTime: 60_000,
    retry: false,
  });
}
