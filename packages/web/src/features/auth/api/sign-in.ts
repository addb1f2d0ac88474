import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import type { AppConfig, SignInResult } from '@outpost/contract/auth';
import type { SsoStartBody, SsoStartResult } from '@outpost/contract/sso';
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

// Single sign-on (docs/product/sign-in.md#single-sign-on): the server builds the provider's
// authorize URL; the browser goes there and comes back to /login with the outcome in the fragment.
export function useStartSso() {
  return useMutation({
    mutationFn: async (body: SsoStartBody) => {
      const { authorize_url } = await api.post<SsoStartResult>('/customer/auth/oidc/start', body);
      window.location.assign(authorize_url);
    },
  });
}

export type SsoOutcome = { token: string } | { error: string };
// kept for a second read while the page first renders (StrictMode calls state initialisers twice)
let lastSsoOutcome: SsoOutcome | null = null;

/** The single sign-on outcome in the address (`#sso_token=…` or `#sso_error=…`), taken out at once. */
export function takeSsoFromAddress(): SsoOutcome | null {
  const params = new URLSearchParams(window.location.hash.slice(1));
  const token = params.get('sso_token');
  const error = params.get('sso_error');
  if (token === null && error === null) {
    const again = lastSsoOutcome;
    lastSsoOutcome = null;
    return again;
  }
  window.history.replaceState(null, '', window.location.pathname + window.location.search);
  lastSsoOutcome = token !== null ? { token } : { error: error ?? '' };
  return lastSsoOutcome;
}

/** Signs in with the session token single sign-on handed back. */
export function useSsoSignIn() {
  const { signIn } = useAuth();
  return useMutation({ mutationFn: (token: string) => signIn({ token }) });
}
