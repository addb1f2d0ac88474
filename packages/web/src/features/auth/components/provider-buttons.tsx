import type { AppConfig } from '@outpost/contract/auth';
import { messages } from '@outpost/contract/messages';
import { Badge } from '../../../components/ui/badge';
import { GoogleButton } from './google-button';
import { SsoButtons } from './sso-buttons';
import type { SsoStartBody } from '@outpost/contract/sso';

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

const providerButton =
  'flex h-11 w-full items-center justify-center gap-3 rounded-md border border-slate-300 bg-white text-sm font-medium text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800';

/**
 * Sign in with Google (or, when this server has no Google client id, a button that says so), the
 * Microsoft button (working once Entra ID is configured, else still to come), and single sign-on.
 */
export function ProviderButtons({
  config,
  isDark,
  onGoogleCredential,
  onNotice,
  onSso,
  isSsoPending,
}: {
  /** the server's configuration, once loaded */
  config: AppConfig | undefined;
  isDark: boolean;
  onGoogleCredential: (token: string) => void;
  onNotice: (text: string) => void;
  /** starts single sign-on (the browser leaves for the provider) */
  onSso: (body: SsoStartBody) => void;
  isSsoPending: boolean;
}) {
  return (
    <>
      {config?.googleClientId && (
        <GoogleButton clientId={config.googleClientId} isDark={isDark} onCredential={onGoogleCredential} />
      )}
      {config && !config.googleClientId && (
        <button
          type="button"
          aria-disabled="true"
          onClick={() =>
            onNotice('Google Sign-In is not configured on this server. Use the development sign-in below.')
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
      {config?.sso.microsoft && (
        <button
          type="button"
          disabled={isSsoPending}
          onClick={() => onSso({ provider: 'microsoft' })}
          className={providerButton}
        >
          <MicrosoftLogo />
          Sign in with Microsoft
        </button>
      )}
      {!config?.sso.microsoft && (
        <button
          type="button"
          aria-disabled="true"
          onClick={() => onNotice(messages.microsoftSoon)}
          className="flex h-11 w-full cursor-not-allowed items-center justify-center gap-3 rounded-md border border-slate-300 bg-white text-sm font-medium text-slate-400 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-500"
        >
          <span className="opacity-60">
            <MicrosoftLogo />
          </span>
          Sign in with Microsoft
          <Badge tone="gray">Coming soon</Badge>
        </button>
      )}
      {!config && <ButtonPlaceholder />}
      {config && (
        <SsoButtons
          oidcName={config.sso.oidcName}
          className={providerButton}
          isPending={isSsoPending}
          onSso={onSso}
        />
      )}
    </>
  );
}

/** A sign-in button's place while the server's configuration loads, so nothing moves when it arrives. */
export function ButtonPlaceholder() {
  return <div className="h-11 w-full animate-pulse rounded-md bg-slate-100 dark:bg-slate-800" aria-hidden />;
}
