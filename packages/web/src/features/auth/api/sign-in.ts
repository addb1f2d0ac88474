import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AppConfig, SignInResult } from '@outpost/contract/auth';
import { api } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';

export const getAppConfigQueryOptions = () =>
  queryOptions({ queryKey: ['config'], queryFn: () => api.get<AppConfig>('/config'), staleTime: Infinity });
export const useAppConfig = () => useQuery(getAppConfigQueryOptions());

export type SignInRequest =
  | { kind: 'google'; token: string }
  | { kind: 'dev'; email: string }
  /** a one-time link from `npm run outpost -- sign-in-link` (`/login#link=…`) */
  | { kind: 'link'; token: string };

const signInRequest = (req: SignInRequest) => {
  switch (req.kind) {
    case 'google':
      return api.post<SignInResult>('/customer/auth/google', { token: req.token });
    case 'link':
      return api.post<SignInResult>('/customer/auth/link', { token: req.token });
    case 'dev':
      return api.post<SignInResult>('/customer/auth/dev', { email: req.email });
  }
};

/** The secret of a sign-in link in the address (`#link=…`), taken out of the address at once. */
export function takeLinkFromAddress(): string | null {
  const match = /^#link=([A-Za-z0-9_-]{20,200})$/.exec(window.location.hash);
  if (!match) {
    return null;
  }
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  return match[1] ?? null;
}

export function useSignIn() {
  const { signIn } = useAuth();
  return useMutation({
    mutationFn: async (req: SignInRequest) => signIn(await signInRequest(req)),
  });
}
