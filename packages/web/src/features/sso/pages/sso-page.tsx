import { useState } from 'react';
import { ROLES, roleLabel } from '@outpost/contract/auth';
import type { Role } from '@outpost/contract/auth';
import type { SsoProviderResponse } from '@outpost/contract/sso';
import { AdminOnlyState, isForbidden } from '../../../components/ui/admin-only-state';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/card';
import { Field, Input, Select, Switch } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useSiteOptions } from '../../../lib/api/devices';
import { useDeleteSsoProvider, useSaveSsoProvider, useSsoProvider } from '../api/sso-provider';
import { MappingRows } from '../components/mapping-rows';
import { ProviderSection, Section } from '../components/provider-section';
import { toBody, toForm } from '../lib/sso-form';
import type { SsoForm } from '../lib/sso-form';

// docs/product/sign-in.md#the-sso-screen — Single Sign-On (/sso): the organisation's own OpenID
// Connect provider, who may join on first sign-in, and which groups give which role and sites.

const TITLE = 'Single Sign-On';
const DESCRIPTION =
  "Let your people sign in with your organization's identity provider (Microsoft Entra ID, Okta, Google Workspace or any OpenID Connect provider).";

function SsoEditor({ view }: { view: SsoProviderResponse }) {
  const save = useSaveSsoProvider();
  const remove = useDeleteSsoProvider();
  const sites = useSiteOptions();
  const toast = useToast();
  const [form, setForm] = useState<SsoForm>(() => toForm(view.provider));
  const [error, setError] = useState<string | null>(null);
  const set = <K extends keyof SsoForm>(key: K, value: SsoForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const hasSecret = view.provider?.has_client_secret ?? false;

  async function submit() {
    setError(null);
    try {
      setForm(toForm((await save.mutateAsync(toBody(form))).provider));
      toast.show({
        type: 'success',
        title: 'Single sign-on saved',
        message: 'The next sign-in uses these settings.',
      });
    } catch (err) {
      setError(errorMessage(err, 'Could not save single sign-on'));
    }
  }

  async function turnOff() {
    try {
      await remove.mutateAsync();
      setForm(toForm(null));
      toast.show({ type: 'success', title: 'Single sign-on turned off', message: '' });
    } catch (err) {
      setError(errorMessage(err, 'Could not turn single sign-on off'));
    }
  }

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          <div className="flex flex-wrap gap-2">
            {view.provider && (
              <Button variant="danger" onClick={() => void turnOff()} isLoading={remove.isPending}>
                Turn off
              </Button>
            )}
            <Button variant="primary" onClick={() => void submit()} isLoading={save.isPending}>
              Save changes
            </Button>
          </div>
        }
      />
      <div className="space-y-6">
        {error && <Alert tone="error">{error}</Alert>}
        <ProviderSection redirectUri={view.redirect_uri} hasSecret={hasSecret} form={form} set={set} />
        <Section
          title="Joining"
          description="Whether people from your domains become members at their first sign-in, without an invitation."
        >
          <Switch
            label="Just-in-time membership"
            description="Off: only invited people can sign in."
            checked={form.jitEnabled}
            onChange={(v) => set('jitEnabled', v)}
          />
          <Field
            label="Default role"
            htmlFor="sso-default-role"
            hint="For people who join, and for people in no mapped group."
          >
            <Select
              id="sso-default-role"
              className="w-48"
              value={form.defaultRole}
              onChange={(e) => set('defaultRole', e.target.value as Role)}
            >
              {ROLES.map((r) => (
                <option key={r} value={r}>
                  {roleLabel(r)}
                </option>
              ))}
            </Select>
          </Field>
        </Section>
        <Section
          title="Groups and roles"
          description="Checked at every sign-in: someone removed from a group loses what it gave at their next sign-in, and their other sessions end."
        >
          <Field
            label="Claim name"
            htmlFor="sso-claim"
            hint="The ID token claim holding groups or roles, e.g. groups or roles. Empty: no mapping."
          >
            <Input
              id="sso-claim"
              className="w-64"
              value={form.groupsClaim}
              onChange={(e) => set('groupsClaim', e.target.value)}
            />
          </Field>
          <MappingRows
            rows={form.mappings}
            sites={sites.data ?? []}
            onChange={(rows) => set('mappings', rows)}
          />
        </Section>
      </div>
    </>
  );
}

export default function SsoPage() {
  const query = useSsoProvider();
  if (query.data) {
    return <SsoEditor view={query.data} />;
  }
  return (
    <>
      <PageHeader title={TITLE} description={DESCRIPTION} />
      {query.isError && isForbidden(query.error) ? (
        <AdminOnlyState
          feature={TITLE}
          details="Single sign-on is set by administrators of all sites. Ask one if you need a change."
        />
      ) : query.isError ? (
        <ErrorState
          title="Could not load single sign-on"
          message={errorMessage(query.error, '')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <div className="flex justify-center py-16">
          <Spinner className="size-6 text-indigo-600 dark:text-indigo-400" label="Loading" />
        </div>
      )}
    </>
  );
}
