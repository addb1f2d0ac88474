import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  CreatedEnrollmentToken,
  CreateEnrollmentTokenBody,
  EnrollmentToken,
} from '@outpost/contract/agents';
import { api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';

export const enrollmentTokensKey = (tenantId: number) => ['agents', tenantId, 'enrollment-tokens'] as const;

export const getEnrollmentTokens = (signal?: AbortSignal) =>
  api.get<EnrollmentToken[]>('/customer/agents/enrollment-tokens', undefined, signal);

export const getEnrollmentTokensQueryOptions = (tenantId: number) =>
  queryOptions({
    queryKey: enrollmentTokensKey(tenantId),
    queryFn: ({ signal }) => getEnrollmentTokens(signal),
  });

export function useEnrollmentTokens(isEnabled: boolean) {
  const user = useUser();
  return useQuery({ ...getEnrollmentTokensQueryOptions(user.tenant_id), enabled: isEnabled });
}

export const createEnrollmentToken = (body: CreateEnrollmentTokenBody) =>
  api.post<CreatedEnrollmentToken>('/customer/agents/enrollment-tokens', body);

export function useCreateEnrollmentToken() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: createEnrollmentToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentTokensKey(user.tenant_id) }),
  });
}

export const revokeEnrollmentToken = (id: number) =>
  api.delete<EnrollmentToken>(`/customer/agents/enrollment-tokens/${id}`);

export function useRevokeEnrollmentToken() {
  const queryClient = useQueryClient();
  const user = useUser();
  return useMutation({
    mutationFn: revokeEnrollmentToken,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: enrollmentTokensKey(user.tenant_id) }),
  });
}
