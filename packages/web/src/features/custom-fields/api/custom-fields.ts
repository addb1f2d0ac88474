import { useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  CustomField,
  CustomFieldCreateBody,
  CustomFieldUpdateBody,
  DeleteCustomFieldResponse,
} from '@outpost/contract/custom-fields';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { customFieldsKey } from '../../../lib/api/custom-fields';
import { devicesKey } from '../../../lib/api/devices';

// docs/product/device-sets.md#custom-fields: the administrators' changes to the definitions.

export const createCustomField = (body: CustomFieldCreateBody) =>
  api.post<CustomField>('/customer/custom-fields', body);
export const updateCustomField = (id: number, body: CustomFieldUpdateBody) =>
  api.put<CustomField>(`/customer/custom-fields/${id}`, body);
export const deleteCustomField = (id: number) =>
  api.delete<DeleteCustomFieldResponse>(`/customer/custom-fields/${id}`);
export const reorderCustomFields = (fieldIds: number[]) =>
  api.put<CustomField[]>('/customer/custom-fields/reorder', { field_ids: fieldIds });

// A definition shows on every device: a change refreshes the devices' fields too.
function useInvalidateFields() {
  const queryClient = useQueryClient();
  const user = useUser();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: customFieldsKey(user.tenant_id) }),
      queryClient.invalidateQueries({ queryKey: devicesKey(user.tenant_id) }),
    ]);
}

/** Create (no id) or update (an id) a field. */
export function useSaveCustomField() {
  const invalidate = useInvalidateFields();
  return useMutation({
    mutationFn: (
      input: { id: number; body: CustomFieldUpdateBody } | { id?: undefined; body: CustomFieldCreateBody },
    ) => (input.id === undefined ? createCustomField(input.body) : updateCustomField(input.id, input.body)),
    onSettled: invalidate,
  });
}

export function useDeleteCustomField() {
  const invalidate = useInvalidateFields();
  return useMutation({ mutationFn: deleteCustomField, onSettled: invalidate });
}

export function useReorderCustomFields() {
  const invalidate = useInvalidateFields();
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: reorderCustomFields,
    // the new order shows at once; the answer (or a refetch after a failure) settles it
    onMutate: (ids) => {
      const key = customFieldsKey(user.tenant_id);
      const before = queryClient.getQueryData<CustomField[]>(key);
      if (before) {
        const byId = new Map(before.map((f) => [f.id, f]));
        queryClient.setQueryData(
          key,
          ids.flatMap((id) => byId.get(id) ?? []),
        );
      }
    },
    onSettled: invalidate,
  });
}
