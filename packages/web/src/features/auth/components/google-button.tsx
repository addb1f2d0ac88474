import { useEffect, useRef, useState } from 'react';

// Google Identity Services, loaded from Google (docs/product/sign-in.md#sign-in-screen). Only rendered when the server
// has a Google client id configured.

type CredentialResponse = { credential: string };
type GoogleIdentity = {
  accounts: {
    id: {
      initialize(options: {
        client_id: string;
        callback: (r: CredentialResponse) => void;
        ux_mode?: 'popup';
      }): void;
      renderButton(el: HTMLElement, options: Record<string, unknown>): void;
    };
  };
};
declare global {
  interface Window {
    google?: GoogleIdentity;
  }
}

const SCRIPT_SRC = 'https://accounts.google.com/gsi/client';
let loading: Promise<void> | null = null;

function loadScript(): Promise<void> {
  loading ??= new Promise<void>((resolve, reject) => {
    const s = document.createElement('script');
    s.src = SCRIPT_SRC;
    s.async = true;
    s.onload = () => resolve();
    s.onerror = () => {
      loading = null;
      reject(new Error('Google sign-in could not be loaded'));
    };
    document.head.appendChild(s);
  });
  return loading;
}

export function GoogleButton({
  clientId,
  onCredential,
  isDark,
}: {
  clientId: string;
  onCredential: (token: string) => void;
  isDark: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const callback = useRef(onCredential);
  useEffect(() => {
    callback.current = onCredential;
  });
  useEffect(() => {
    let isActive = true;
    loadScript()
      .then(() => {
        if (!isActive || !ref.current || !window.google) {
          return;
        }
        window.google.accounts.id.initialize({
          client_id: clientId,
          callback: (r) => callback.current(r.credential),
          ux_mode: 'popup',
        });
        window.google.accounts.id.renderButton(ref.current, {
          theme: isDark ? 'filled_black' : 'outline',
          size: 'large',
          text: 'signin_with',
          shape: 'rectangular',
          width: 320,
        });
      })
      .catch((err: Error) => isActive && setLoadError(err.message));
    return () => {
      isActive = false;
    };
  }, [clientId, isDark]);
  if (loadError) {
    return <p className="text-center text-sm text-red-600 dark:text-red-400">{loadError}</p>;
  }
  return <div ref={ref} className="flex min-h-11 justify-center" data-testid="google-signin" />;
}
