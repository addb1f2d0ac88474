import { useId, useState } from 'react';
import { KeyRound } from 'lucide-react';
import { ssoMessages } from '@outpost/contract/sso';
import type { SsoStartBody } from '@outpost/contract/sso';
import { Button } from '../../../components/ui/button';
import { Input } from '../../../components/ui/form';

// docs/product/sign-in.md#single-sign-on — the server-wide provider's button (when configured), and
// "Sign in with SSO": the work e-mail's domain picks the organisation's own provider.
export function SsoButtons({
  oidcName,
  className,
  isPending,
  onSso,
}: {
  oidcName: string | null;
  className: string;
  isPending: boolean;
  onSso: (body: SsoStartBody) => void;
}) {
  const [isAsking, setIsAsking] = useState(false);
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const inputId = useId();

  const submit = () => {
    const address = email.trim();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) {
      setError(ssoMessages.emailRequired);
      return;
    }
    setError(null);
    onSso({ provider: 'organization', email: address });
  };

  return (
    <>
      {oidcName && (
        <button
          type="button"
          disabled={isPending}
          onClick={() => onSso({ provider: 'oidc' })}
          className={className}
        >
          <KeyRound className="size-4" aria-hidden />
          Sign in with {oidcName}
        </button>
      )}
      {!isAsking && (
        <button type="button" onClick={() => setIsAsking(true)} className={className}>
          <KeyRound className="size-4" aria-hidden />
          Sign in with SSO
        </button>
      )}
      {isAsking && (
        <form
          className="space-y-2 rounded-md border border-slate-200 p-3 dark:border-slate-700"
          onSubmit={(e) => {
            e.preventDefault();
            submit();
          }}
        >
          <label htmlFor={inputId} className="block text-sm font-medium text-slate-700 dark:text-slate-200">
            Work e-mail
          </label>
          <Input
            id={inputId}
            type="email"
            autoComplete="email"
            autoFocus
            placeholder="you@company.com"
            value={email}
            aria-invalid={error !== null}
            aria-describedby={error ? `${inputId}-error` : undefined}
            onChange={(e) => setEmail(e.target.value)}
          />
          {error && (
            <p id={`${inputId}-error`} className="text-xs text-red-600 dark:text-red-400">
              {error}
            </p>
          )}
          <Button type="submit" variant="primary" className="w-full" isLoading={isPending}>
            Continue with SSO
          </Button>
        </form>
      )}
    </>
  );
}
