import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionUser, SignInResult } from '@outpost/contract/auth';
import { api, API_BASE, ApiError, UNAUTHORIZED_EVENT } from './api-client';
import { tokenStore } from './storage';

// docs/product/sign-in.md#sessions — no token means signed out; with a token the profile is fetched; on
// success the user is set, on failure the token is removed. Sign-out removes the token at once and,
// as a deliberate addition to the product description (docs/decisions/2026-11-26-server-side-sessions.md), also
// asks the server to end the session, without waiting for or depending on the answer.
// "Failure" is the server refusing the token (a 4xx answer such as 401): a server error, a
// timeout or no network says nothing about the token, so the session is kept and the gate
// offers a retry ('unavailable') instead of signing the user out.

export type AuthStatus = 'loading' | 'authenticated' | 'anonymous' | 'unavailable';

type AuthValue = {
  status: AuthStatus;
  user: SessionUser | null;
  token: string | null;
  /** Why the profile could not be loaded while the session is kept ('unavailable'). */
  profileError: string | null;
  retryProfile: () => void;
  signIn: (result: Pick<SignInResult, 'token'>) => Promise<void>;
  signOut: () => void;
};

const AuthContext = createContext<AuthValue | null>(null);

export const profileQueryKey = (token: string | null) => ['auth', 'profile', token] as const;
export const fetchProfile = () => api.get<SessionUser>('/customer/auth/profile');

/** The server answered that this token is not (or no longer) good; busy and failing servers did not. */
export function isSessionRefused(err: unknown): boolean {
  if (!(err instanceof ApiError)) {
    return false;
  }
  return err.status >= 400 && err.status < 500 && err.status !== 408 && err.status !== 429;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [token, setToken] = useState<string | null>(() => tokenStore.get());

  /** Forgets the token here (a refused token, or after a sign-out). */
  const forget = useCallback(() => {
    tokenStore.clear();
    setToken(null);
    queryClient.clear();
  }, [queryClient]);

  const signOut = useCallback(() => {
    const current = tokenStore.get();
    if (current) {
      endServerSession(current);
    }
    forget();
  }, [forget]);

  const profile = useQuery({
    queryKey: profileQueryKey(token),
    queryFn: async () => {
      try {
        return await fetchProfile();
      } catch (err) {
        // A refused profile check removes the token (docs/product/sign-in.md#sign-in-screen); a server error keeps it.
        if (isSessionRefused(err)) {
          tokenStore.clear();
          setToken(null);
        }
        throw err;
      }
    },
    enabled: token !== null,
    retry: false,
    staleTime: 60_000,
  });

  useEffect(() => {
    window.addEventListener(UNAUTHORIZED_EVENT, forget);
    return () => window.removeEventListener(UNAUTHORIZED_EVENT, forget);
  }, [forget]);

  const signIn = useCallback(
    async (result: Pick<SignInResult, 'token'>) => {
      tokenStore.set(result.token);
      setToken(result.token);
      await queryClient.fetchQuery({ queryKey: profileQueryKey(result.token), queryFn: fetchProfile });
    },
    [queryClient],
  );

  const { refetch } = profile;
  const retryProfile = useCallback(() => void refetch(), [refetch]);

  const user = token ? (profile.data ?? null) : null;
  const isUnavailable = profile.isError && !profile.isFetching;
  const status: AuthStatus = !token
    ? 'anonymous'
    : user
      ? 'authenticated'
      : isUnavailable
        ? 'unavailable'
        : 'loading';
  const profileError = status === 'unavailable' ? (profile.error?.message ?? null) : null;
  const value = useMemo(
    () => ({ status, user, token, profileError, retryProfile, signIn, signOut }),
    [status, user, token, profileError, retryProfile, signIn, signOut],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

/** POST /auth/logout for this token; keepalive lets it finish while the page moves on. */
function endServerSession(token: string): void {
  fetch(`${API_BASE}/customer/auth/logout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
    keepalive: true,
  }).catch(() => {
    // The token is gone from this browser either way; the session expires on its own.
  });
}

export function useAuth(): AuthValue {
  const ctx = useContext(AuthContext);
  if (!ctx) {
    throw new Error('useAuth must be used inside <AuthProvider>');
  }
  return ctx;
}

/** The signed-in user; only for screens behind the route gate. */
export function useUser(): SessionUser {
  const { user } = useAuth();
  if (!user) {
    throw new Error('useUser needs a signed-in user');
  }
  return user;
}
