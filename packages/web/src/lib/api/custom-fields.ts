import { queryOptions, useQuery } from '@tanstack/react-query';
import type { CustomField } from '@outpost/contract/custom-fields';
import { api } from '../api-client';
import { useUser } from '../auth';

// The tenant's custom field definitions (docs/product/device-sets.md#custom-fields), read by the
// admin page, the device detail, the device list's bulk "Set field" and the package builder.

export type { CustomField } from '@outpost/contract/custom-fields';

export const customFieldsKey = (tenantId: number) => ['custom-fields', tenantId] as const;

export const getCustomFields = (signal?: AbortSignal) =>
  api.get<CustomField[]>('/customer/custom-fields', undefined, signal);

export const getCustomFieldsQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: customFieldsKey(tenantId),
    queryFn: ({ signal }) => getCustomFields(signal),
  });

export function useCustomFields() {
  const user = useUser();
  return useQuery(getCustomFieldsQueryOptions(user.tenant_id));
}
