import { useEffect, useRef, useState } from 'react';
import { HelpCircle } from 'lucide-react';
import { messages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { ApiError } from '../../../lib/api-client';
import { useDarkMode } from '../../../lib/theme';
import {
  takeLinkFromAddress,
  takeSsoFromAddress,
  useAppConfig,
  useSignIn,
  useSsoSignIn,
  useStartSso,
} from '../api/sign-in';
import type { SignInRequest } from '../api/sign-in';
import { BrandPanel } from '../components/brand-panel';
import { DevSignIn } from '../components/dev-sign-in';
import { ButtonPlaceholder, ProviderButtons } from '../components/provider-buttons';

export default function LoginPage() {
  const config = useAppConfig();
  const signIn = useSignIn();
  const startSso = useStartSso();
  const ssoSignIn = useSsoSignIn();
  const [isDark] = useDarkMode();
  // docs/product/sign-in.md#single-sign-on — back from the provider: the session, or why not
  const [ssoOutcome] = useState(takeSsoFromAddress);
  const [notice, setNotice] = useState<{ tone: 'error' | 'info'; text: string } | null>(() =>
    ssoOutcome && 'error' in ssoOutcome
      ? { tone: 'error', text: messages.loginFailed(ssoOutcome.error) }
      : null,
  );
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);

  const submit = (req: SignInRequest) => {
    setNotice(null);
    setPendingEmail(req.kind === 'dev' ? req.email : null);
    signIn.mutate(req, {
      // docs/product/sign-in.md#sign-in-screen — 'Login failed: {error}', or the network message when the server is unreachable.
      onError: (err) =>
        setNotice({
          tone: 'error',
          text: err instanceof ApiError ? messages.loginFailed(err.message) : messages.loginNetworkError,
        }),
      onSettled: () => setPendingEmail(null),
    });
  };

  // A one-time sign-in link signs in as soon as the page opens (once, even under StrictMode).
  const linkTaken = useRef(false);
  useEffect(() => {
    if (linkTaken.current) {
      return;
    }
    linkTaken.current = true;
    if (ssoOutcome && 'token' in ssoOutcome) {
      ssoSignIn.mutate(ssoOutcome.token, {
        onError: (err) =>
          setNotice({
            tone: 'error',
            text: err instanceof ApiError ? messages.loginFailed(err.message) : messages.loginNetworkError,
          }),
      });
    }
    const token = takeLinkFromAddress();
    if (token) {
      signIn.mutate(
        { kind: 'link', token },
        {
          onError: (err) =>
            setNotice({
              tone: 'error',
              text: err instanceof ApiError ? messages.loginFailed(err.message) : messages.loginNetworkError,
            }),
        },
      );
    }
  }, [signIn, ssoSignIn, ssoOutcome]);

  return (
    <div className="flex min-h-screen">
      <BrandPanel />

      {/* on a phone the form starts at the top: centred, the sign-in choices arriving with the
          server's configuration moved the heading (Lighthouse mobile: layout shift 0.23) */}
      <div className="flex min-w-0 flex-1 items-start justify-center px-4 py-12 sm:items-center sm:px-8">
        <div className="w-full max-w-sm min-w-0">
          <div className="mb-8 flex items-center gap-3 lg:hidden">
            <img src="/favicon.svg" alt="" className="size-10" />
            <span className="text-xl font-bold tracking-tight">Outpost</span>
          </div>
          <h1 className="text-2xl font-semibold tracking-tight text-slate-900 dark:text-white">
            Customer Portal
          </h1>
          <p className="mt-1.5 text-sm text-slate-500 dark:text-slate-400">
            Sign in to manage your organisation's devices.
          </p>

          <div className="mt-8 space-y-3">
            {/* the Google button's place while the configuration loads (ProviderButtons holds SSO's) */}
            {config.isLoading && <ButtonPlaceholder />}
            <ProviderButtons
              config={config.data}
              isDark={isDark}
              onGoogleCredential={(token) => submit({ kind: 'google', token })}
              onNotice={(text) => setNotice({ tone: 'info', text })}
              isSsoPending={startSso.isPending}
              onSso={(body) => {
                setNotice(null);
                startSso.mutate(body, {
                  onError: (err) =>
                    setNotice({
                      tone: 'error',
                      text:
                        err instanceof ApiError
                          ? messages.loginFailed(err.message)
                          : messages.loginNetworkError,
                    }),
                });
              }}
            />
          </div>

          {notice && (
            <Alert tone={notice.tone} className="mt-4">
              {notice.text}
            </Alert>
          )}
          {config.isError && <Alert className="mt-4">{messages.loginNetworkError}</Alert>}

          <div className="mt-8 flex gap-2.5 rounded-lg bg-slate-100/80 p-3.5 text-xs text-slate-600 dark:bg-slate-800/60 dark:text-slate-400">
            <HelpCircle className="mt-0.5 size-4 shrink-0" />
            <p>
              Sign in with the Google account your organisation invited. Need access or belong to another
              organisation? Ask your organisation's Outpost administrator.
            </p>
          </div>

          {/* last: it arrives with the server's configuration, and below everything else it moves
              nothing (above the help, it pushed it down: Lighthouse mobile layout shift 0.08) */}
          {config.data?.devLogin && (
            <DevSignIn
              users={config.data.devUsers}
              isPending={signIn.isPending}
              pendingEmail={pendingEmail}
              onSignIn={(email) => submit({ kind: 'dev', email })}
            />
          )}
        </div>
      </div>
    </div>
  );
}
