import { useState } from 'react';
import {
  API_TOKEN_ACCESS,
  API_TOKEN_AREAS,
  CreateApiTokenBody,
  apiTokenMessages,
} from '@outpost/contract/api-tokens';
import type { ApiTokenScope, CreatedApiToken } from '@outpost/contract/api-tokens';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { CopyBlock } from '../../../components/ui/copy-block';
import { Dialog } from '../../../components/ui/dialog';
import { Checkbox, Field, Input, Select } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api-client';
import { useSiteOptions } from '../../../lib/api/devices';
import { useCreateApiToken } from '../api/api-tokens';

// docs/product/administration.md#api-tokens: name, scopes (read or write per area), an optional
// site limit and an expiry; the secret is shown once, with a copy button.

const AREA_LABEL: Record<(typeof API_TOKEN_AREAS)[number], string> = {
  devices: 'Devices',
  packages: 'Packages',
  deployments: 'Deployments',
  scripts: 'Scripts',
  users: 'Users',
  sites: 'Sites',
  audit: 'Audit log',
  alerts: 'Alerts and monitoring',
};

/** Expiry choices, in days (null: never). */
const EXPIRY_CHOICES = [
  { value: '30', label: '30 days' },
  { value: '90', label: '90 days' },
  { value: '365', label: '1 year' },
  { value: 'never', label: 'No expiry' },
];

const expiresAt = (choice: string) =>
  choice === 'never' ? null : new Date(Date.now() + Number(choice) * 24 * 60 * 60 * 1000).toISOString();

export function CreateTokenDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  return isOpen ? <CreateTokenForm onClose={onClose} /> : null;
}

function CreateTokenForm({ onClose }: { onClose: () => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<Set<ApiTokenScope>>(new Set(['devices:read']));
  const [siteIds, setSiteIds] = useState<Set<number>>(new Set());
  const [expiry, setExpiry] = useState('90');
  const [error, setError] = useState<string | null>(null);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);
  const create = useCreateApiToken();
  const sites = useSiteOptions().data ?? [];

  const toggle = <T,>(set: Set<T>, value: T) => {
    const next = new Set(set);
    if (!next.delete(value)) {
      next.add(value);
    }
    return next;
  };

  async function save() {
    const parsed = CreateApiTokenBody.safeParse({
      name,
      scopes: [...scopes],
      site_ids: siteIds.size > 0 ? [...siteIds] : null,
      expires_at: expiresAt(expiry),
    });
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? apiTokenMessages.nameRequired);
      return;
    }
    try {
      setCreated(await create.mutateAsync(parsed.data));
    } catch (err) {
      setError(errorMessage(err, 'Could not create the token'));
    }
  }

  if (created) {
    return (
      <Dialog
        isOpen
        onClose={onClose}
        title={apiTokenMessages.created}
        footer={<Button onClick={onClose}>Done</Button>}
      >
        <div className="space-y-4">
          <Alert tone="warning">{apiTokenMessages.copyOnce}</Alert>
          <div>
            <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">{created.name}</p>
            <CopyBlock text={created.token} isWrapped />
          </div>
          <p className="text-sm text-slate-600 dark:text-slate-300">
            Send it as <code className="font-mono">Authorization: Bearer &lt;token&gt;</code> to the Outpost
            API.
          </p>
        </div>
      </Dialog>
    );
  }

  return (
    <Dialog
      isOpen
      onClose={onClose}
      title="New API token"
      size="lg"
      isDismissDisabled={create.isPending}
      footer={
        <>
          <Button onClick={onClose} disabled={create.isPending}>
            Cancel
          </Button>
          <Button variant="primary" isLoading={create.isPending} onClick={() => void save()}>
            Create token
          </Button>
        </>
      }
    >
      <form
        className="space-y-5"
        onSubmit={(e) => {
          e.preventDefault();
          void save();
        }}
      >
        {error && <Alert>{error}</Alert>}
        <Field
          label="Name"
          htmlFor="api-token-name"
          required
          hint="What uses it, e.g. “Nightly inventory export”."
        >
          <Input id="api-token-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
        </Field>
        <ScopesPicker scopes={scopes} onToggle={(scope) => setScopes((s) => toggle(s, scope))} />
        {sites.length > 0 && (
          <fieldset>
            <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Sites</legend>
            <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
              None chosen: every site you can see. Chosen: only those, like a site-limited user.
            </p>
            <div className="flex flex-wrap gap-x-5 gap-y-2">
              {sites.map((site) => (
                <Checkbox
                  key={site.id}
                  label={site.site_name}
                  checked={siteIds.has(site.id)}
                  onChange={() => setSiteIds((s) => toggle(s, site.id))}
                />
              ))}
            </div>
          </fieldset>
        )}
        <Field label="Expires" htmlFor="api-token-expiry">
          <Select id="api-token-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
            {EXPIRY_CHOICES.map((c) => (
              <option key={c.value} value={c.value}>
                {c.label}
              </option>
            ))}
          </Select>
        </Field>
      </form>
    </Dialog>
  );
}

/** Read and Write for each area (docs/product/administration.md#api-tokens). */
function ScopesPicker({
  scopes,
  onToggle,
}: {
  scopes: ReadonlySet<ApiTokenScope>;
  onToggle: (scope: ApiTokenScope) => void;
}) {
  return (
    <fieldset>
      <legend className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Scopes</legend>
      <p className="mb-2 text-xs text-slate-500 dark:text-slate-400">
        Read lets it look; write lets it change. Give only what it needs.
      </p>
      <div className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
        {API_TOKEN_AREAS.map((area) => (
          <div key={area} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2">
            <span className="text-sm text-slate-700 dark:text-slate-200">{AREA_LABEL[area]}</span>
            <span className="flex gap-4">
              {API_TOKEN_ACCESS.map((access) => {
                const scope: ApiTokenScope = `${area}:${access}`;
                return (
                  <Checkbox
                    key={scope}
                    label={access === 'read' ? 'Read' : 'Write'}
                    aria-label={`${AREA_LABEL[area]}: ${access}`}
                    checked={scopes.has(scope)}
                    onChange={() => onToggle(scope)}
                  />
                );
              })}
            </span>
          </div>
        ))}
      </div>
    </fieldset>
  );
}
