import { useEffect, useRef, useState } from 'react';
import { ArrowRight, HelpCircle, Monitor, Rocket, ShieldCheck, Terminal } from 'lucide-react';
import { roleLabel } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useDarkMode } from '../../../lib/theme';
import { takeLinkFromAddress, useAppConfig, useSignIn } from '../api/sign-in';
import type { SignInRequest } from '../api/sign-in';
import { GoogleButton } from '../components/google-button';

function MicrosoftLogo() {
  return (
    <svg viewBox="0 0 21 21" className="size-4" aria-hidden>
      <rect x="1" y="1" width="9" height="9" fill="#f25022" />
      <rect x="11" y="1" width="9" height="9" fill="#7fba00" />
      <rect x="1" y="11" width="9" height="9" fill="#00a4ef" />
      <rect x="11" y="11" width="9" height="9" fill="#ffb900" />
    </svg>
  );
}

const highlights = [
  {
    icon: Monitor,
    title: 'Every device, live',
    text: 'Status, hardware, network, software and services as they change.',
  },
  {
    icon: Rocket,
    title: 'Deploy with confidence',
    text: 'Ordered install steps, now or on schedule, with per-device logs.',
  },
  {
    icon: ShieldCheck,
    title: 'Built for teams',
    text: 'Organisations, sites, roles and a full audit trail.',
  },
];

export default function LoginPage() {
  const config = useAppConfig();
  const signIn = useSignIn();
  const [isDark] = useDarkMode();
  const [notice, setNotice] = useState<{ tone: 'error' | 'info'; text: string } | null>(null);
  const [pendingEmail, setPendingEmail] = useState<string | null>(null);

  const submit = (req: SignInRequest) => {
    setNotice(null);
    setPendingEmail(req.kind === 'dev' ? req.email : null);
    signIn.mutate(req, {
      // spec: core §8 — 'Login failed: {error}', or the network message when the server is unreachable.
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
  }, [signIn]);

  return (
    <div className="flex min-h-screen">
      <div className="relative hidden w-[44%] flex-col justify-between overflow-hidden bg-gradient-to-br from-indigo-700 via-indigo-600 to-violet-700 p-12 text-white lg:flex">
        <div className="absolute -top-24 -right-24 size-96 rounded-full bg-white/10 blur-3xl" aria-hidden />
        <div
          className="absolute bottom-0 left-0 size-72 rounded-full bg-violet-400/20 blur-3xl"
          aria-hidden
        />
        <div className="relative flex items-center gap-3">
          <img src="/favicon.svg" alt="" className="size-10 rounded-lg ring-2 ring-white/30" />
          <span className="text-xl font-bold tracking-tight">Outpost</span>
        </div>
        <div className="relative space-y-8">
          <h2 className="max-w-md text-3xl leading-tight font-semibold">
            Remote device management for the whole organisation.
          </h2>
          <ul className="space-y-5">
            {highlights.map(({ icon: Icon, title, text }) => (
              <li key={title} className="flex gap-4">
                <span className="flex size-10 shrink-0 items-center justify-center rounded-lg bg-white/15 ring-1 ring-white/20">
                  <Icon className="size-5" />
                </span>
                <span>
                  <span className="block font-medium">{title}</span>
                  <span className="block text-sm text-indigo-100">{text}</span>
                </span>
              </li>
            ))}
          </ul>
        </div>
        <p className="relative text-xs text-indigo-200">© {new Date().getFullYear()} Outpost</p>
      </div>

      <div className="flex min-w-0 flex-1 items-center justify-center px-4 py-12 sm:px-8">
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
            {config.isLoading && (
              <div className="flex justify-center py-3">
                <Spinner />
              </div>
            )}
            {config.data?.googleClientId && (
              <GoogleButton
                clientId={config.data.googleClientId}
                isDark={isDark}
                onCredential={(token) => submit({ kind: 'google', token })}
              />
            )}
            {config.data && !config.data.googleClientId && (
              <button
                type="button"
                aria-disabled="true"
                onClick={() =>
                  setNotice({
                    tone: 'info',
                    text: 'Google Sign-In is not configured on this server. Use the development sign-in below.',
                  })
                }
                className="flex h-11 w-full cursor-not-allowed items-center justify-center gap-3 rounded-md border border-slate-300 bg-white text-sm font-medium text-slate-400 dark:border-slate-700 dark:bg-slate-900"
              >
                <svg viewBox="0 0 24 24" className="size-4 opacity-50" aria-hidden>
                  <path
                    fill="currentColor"
                    d="M21.35 11.1H12v2.9h5.35c-.5 2.4-2.6 3.9-5.35 3.9a6 6 0 1 1 0-12c1.5 0 2.9.55 3.95 1.45l2.1-2.1A9 9 0 1 0 12 21c4.6 0 8.7-3.3 8.7-9 0-.3-.05-.6-.1-.9z"
                  />
                </svg>
                Sign in with Google
              </button>
            )}
            <button
              type="button"
              aria-disabled="true"
              onClick={() => setNotice({ tone: 'info', text: messages.microsoftSoon })}
              className="flex h-11 w-full cursor-not-allowed items-center justify-center gap-3 rounded-md border border-slate-300 bg-white text-sm font-medium text-slate-400 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-500"
            >
              <span className="opacity-60">
                <MicrosoftLogo />
              </span>
              Sign in with Microsoft
              <Badge tone="gray">Coming soon</Badge>
            </button>
          </div>

          {notice && (
            <Alert tone={notice.tone} className="mt-4">
              {notice.text}
            </Alert>
          )}
          {config.isError && <Alert className="mt-4">{messages.loginNetworkError}</Alert>}

          {config.data?.devLogin && (
            <section
              className="mt-8 rounded-xl border border-dashed border-amber-300 bg-amber-50/60 p-4 dark:border-amber-500/40 dark:bg-amber-500/5"
              aria-labelledby="dev-login-title"
            >
              <div className="flex items-center gap-2">
                <Terminal className="size-4 text-amber-600 dark:text-amber-400" />
                <h2 id="dev-login-title" className="text-sm font-semibold text-amber-900 dark:text-amber-300">
                  Development sign-in
                </h2>
              </div>
              <p className="mt-1 text-xs text-amber-800 dark:text-amber-300/90">
                No Google client id is configured, so this server offers its invited users directly. Never
                enable this on a public address.
              </p>
              <ul className="mt-3 space-y-2">
                {config.data.devUsers.map((u) => (
                  <li key={u.email}>
                    <button
                      type="button"
                      onClick={() => submit({ kind: 'dev', email: u.email })}
                      disabled={signIn.isPending}
                      className="group flex w-full items-center justify-between gap-3 rounded-lg bg-white px-3 py-2.5 text-left shadow-sm ring-1 ring-slate-200 transition hover:ring-indigo-400 disabled:opacity-60 dark:bg-slate-900 dark:ring-slate-700 dark:hover:ring-indigo-500"
                    >
                      <span className="min-w-0">
                        <span className="block truncate text-sm font-medium text-slate-900 dark:text-white">
                          {u.name ?? u.email}
                        </span>
                        <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                          {u.email} ·{' '}
                          {u.tenants.map((t) => `${t.tenant_name} (${roleLabel(t.role, true)})`).join(', ')}
                        </span>
                      </span>
                      {pendingEmail === u.email ? (
                        <Spinner className="size-4 shrink-0 text-indigo-600" />
                      ) : (
                        <ArrowRight className="size-4 shrink-0 text-slate-300 group-hover:text-indigo-500" />
                      )}
                    </button>
                  </li>
                ))}
                {config.data.devUsers.length === 0 && (
                  <li className="text-xs text-amber-800 dark:text-amber-300">
                    No users yet. Create a tenant with `npm run outpost -- tenant:create`.
                  </li>
                )}
              </ul>
            </section>
          )}

          <div className="mt-8 flex gap-2.5 rounded-lg bg-slate-100/80 p-3.5 text-xs text-slate-600 dark:bg-slate-800/60 dark:text-slate-400">
            <HelpCircle className="mt-0.5 size-4 shrink-0" />
            <p>
              Sign in with the Google account your organisation invited. Need access or belong to another
              organisation? Ask your organisation's Outpost administrator.
            </p>
          </div>
        </div>
      </div>
    </div>
  );
}
