import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AppConfig, SignInResult } from '@outpost/contract/auth';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';

export const getAppConfigQueryOptions = () =>
  queryOptions({ queryKey: ['config'], queryFn: () => api.get<AppConfig>('/config'), staleTime: Infinity });
export const useAppConfig = () => useQuery(getAppConfigQueryOptions());

export type SignInRequest = { kind: 'google'; token: string } | { kind: 'dev'; email: string };

const signInRequest = (req: SignInRequest) =>
  req.kind === 'google'
    ? api.post<SignInResult>('/customer/auth/google', { token: req.token })
    : api.post<SignInResult>('/customer/auth/dev', { email: req.email });

export function useSignIn() {
  const { signIn } = useAuth();
  return useMutation({
    mutationFn: async (req: SignInRequest) => signIn(await signInRequest(req)),
  });
}
