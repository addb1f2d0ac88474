import { useState } from 'react';
import { KeyRound } from 'lucide-react';
import type { CreatedEnrollmentToken } from '@outpost/contract/agents';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select } from '../../../components/ui/form';
import { errorMessage } from '../../../lib/api-client';
import {
  useCreateEnrollmentToken,
  useEnrollmentTokens,
  useRevokeEnrollmentToken,
} from '../api/enrollment-tokens';
import { useAgentReleases } from '../api/agent-releases';
import { useSiteOptions } from '../../../lib/api/devices';
import { ActiveTokens } from './active-tokens';
import { CreatedTokenView } from './created-token-view';
import type { Platform } from './created-token-view';

const EXPIRY_CHOICES = [
  { value: '7', label: 'In 7 days' },
  { value: '30', label: 'In 30 days' },
  { value: '', label: 'Never' },
];

export function InstallAgentDialog({ isOpen, onClose }: { isOpen: boolean; onClose: () => void }) {
  const sites = useSiteOptions();
  const tokens = useEnrollmentTokens(isOpen);
  const create = useCreateEnrollmentToken();
  const revoke = useRevokeEnrollmentToken();
  const releases = useAgentReleases(isOpen);
  const [name, setName] = useState('');
  const [siteId, setSiteId] = useState('');
  const [expiry, setExpiry] = useState('7');
  const [created, setCreated] = useState<CreatedEnrollmentToken | null>(null);
  const [platform, setPlatform] = useState<Platform>('windows');
  const serverUrl = window.location.origin;

  const close = () => {
    setCreated(null);
    setName('');
    create.reset();
    onClose();
  };

  const submit = () => {
    create.mutate(
      {
        name: name.trim() || undefined,
        site_id: siteId ? Number(siteId) : null,
        expires_at: expiry ? new Date(Date.now() + Number(expiry) * 86_400_000).toISOString() : null,
      },
      { onSuccess: setCreated },
    );
  };

  const active = (tokens.data ?? []).filter((t) => t.state === 'active');

  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      size="lg"
      title="Install Agent"
      description="Create an enrolment token, then run the install command on the device."
      footer={
        created ? (
          <Button variant="primary" onClick={close}>
            Done
          </Button>
        ) : (
          <>
            <Button onClick={close}>Cancel</Button>
            <Button
              variant="primary"
              onClick={submit}
              isLoading={create.isPending}
              icon={<KeyRound className="size-4" />}
            >
              Create token
            </Button>
          </>
        )
      }
    >
      {created ? (
        <CreatedTokenView
          created={created}
          serverUrl={serverUrl}
          platform={platform}
          onPlatformChange={setPlatform}
          releases={releases}
        />
      ) : (
        <div className="space-y-5">
          {create.isError && <Alert>{errorMessage(create.error, 'Could not create the token')}</Alert>}
          <div className="grid gap-4 sm:grid-cols-3">
            <Field label="Name" htmlFor="token-name" hint="Optional, to recognise it">
              <Input
                id="token-name"
                value={name}
                maxLength={200}
                placeholder="e.g. London laptops"
                onChange={(e) => setName(e.target.value)}
              />
            </Field>
            <Field label="Site" htmlFor="token-site" hint="Devices join this site">
              <Select id="token-site" value={siteId} onChange={(e) => setSiteId(e.target.value)}>
                <option value="">No site</option>
                {(sites.data ?? []).map((s) => (
                  <option key={s.id} value={s.id}>
                    {s.site_name}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="Expires" htmlFor="token-expiry">
              <Select id="token-expiry" value={expiry} onChange={(e) => setExpiry(e.target.value)}>
                {EXPIRY_CHOICES.map((c) => (
                  <option key={c.label} value={c.value}>
                    {c.label}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
          <ActiveTokens tokens={active} isRevoking={revoke.isPending} onRevoke={(id) => revoke.mutate(id)} />
        </div>
      )}
    </Dialog>
  );
}
