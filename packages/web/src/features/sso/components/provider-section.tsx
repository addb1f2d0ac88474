import type { ReactNode } from 'react';
import { Card, CardHeader } from '../../../components/ui/card';
import { CopyBlock } from '../../../components/ui/copy-block';
import { Field, Input, Textarea } from '../../../components/ui/form';
import type { SsoForm } from '../lib/sso-form';

// docs/product/sign-in.md#the-sso-screen — a section of the SSO screen, and its first one: the
// provider's registration (redirect URI, issuer, client id and secret, allowed domains).

export function Section({
  title,
  description,
  children,
}: {
  title: string;
  description: string;
  children: ReactNode;
}) {
  return (
    <Card>
      <CardHeader title={title} description={description} />
      <div className="space-y-4 px-5 py-4">{children}</div>
    </Card>
  );
}

export function ProviderSection({
  redirectUri,
  hasSecret,
  form,
  set,
}: {
  redirectUri: string;
  hasSecret: boolean;
  form: SsoForm;
  set: <K extends keyof SsoForm>(key: K, value: SsoForm[K]) => void;
}) {
  return (
    <Section
      title="Identity provider"
      description="Register Outpost as a web application at your provider with this redirect URI, then enter what the provider gives you."
    >
      <Field label="Redirect URI" hint="Copy this into your provider's app registration.">
        <CopyBlock text={redirectUri} isWrapped />
      </Field>
      <Field
        label="Issuer URL"
        htmlFor="sso-issuer"
        hint="e.g. https://login.microsoftonline.com/{tenant id}/v2.0"
      >
        <Input id="sso-issuer" value={form.issuer} onChange={(e) => set('issuer', e.target.value)} />
      </Field>
      <Field label="Client ID" htmlFor="sso-client-id">
        <Input id="sso-client-id" value={form.clientId} onChange={(e) => set('clientId', e.target.value)} />
      </Field>
      <Field
        label="Client secret"
        htmlFor="sso-client-secret"
        hint={
          hasSecret
            ? 'A secret is stored (encrypted). Leave empty to keep it.'
            : 'Stored encrypted; never shown again.'
        }
      >
        <Input
          id="sso-client-secret"
          type="password"
          autoComplete="new-password"
          placeholder={hasSecret ? '••••••••' : ''}
          value={form.clientSecret}
          onChange={(e) => set('clientSecret', e.target.value)}
        />
      </Field>
      <Field
        label="Allowed e-mail domains"
        htmlFor="sso-domains"
        hint="People sign in with SSO by typing a work e-mail at one of these domains; other addresses are refused."
      >
        <Textarea
          id="sso-domains"
          rows={2}
          value={form.domains}
          onChange={(e) => set('domains', e.target.value)}
        />
      </Field>
    </Section>
  );
}
