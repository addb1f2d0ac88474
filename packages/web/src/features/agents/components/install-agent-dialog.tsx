import { useState } from 'react';
import { Check, Copy, Download, KeyRound } from 'lucide-react';
import type { CreatedEnrollmentToken } from '@outpost/contract/agents';
import { deviceMessages } from '@outpost/contract/messages';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { Field, Input, Select } from '../../../components/ui/form';
import { Tabs } from '../../../components/ui/tabs';
import { errorMessage } from '../../../lib/api-client';
import { cn } from '../../../lib/cn';
import { relativeTime } from '../../../lib/format';
import {
  useCreateEnrollmentToken,
  useEnrollmentTokens,
  useRevokeEnrollmentToken,
} from '../api/enrollment-tokens';
import { useAgentReleases } from '../api/agent-releases';
import { useSiteOptions } from '../../../lib/api/devices';

type Platform = 'windows' | 'macos' | 'linux';

const PLATFORM_LABEL: Record<Platform, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' };

/**
 * The one-line install (issue 15): the server's install script downloads the agent executable
 * for the device, checks its SHA-256, enrols it with the token and registers it as a service. The
 * token is an argument, never part of a URL.
 */
export function installCommand(platform: Platform, serverUrl: string, token: string): string {
  return platform === 'windows'
    ? `& ([scriptblock]::Create((irm ${serverUrl}/api/agent/install.ps1))) -Token ${token}`
    : `curl -fsSL ${serverUrl}/api/agent/install.sh | sudo sh -s -- --token ${token}`;
}

const INSTALL_SHELL: Record<Platform, string> = {
  windows: 'In PowerShell, run as Administrator',
  macos: 'In Terminal, as a user who may use sudo',
  linux: 'In a shell, as root or a user who may use sudo',
};

const SERVICE_KIND: Record<Platform, string> = {
  windows: 'a Windows service',
  macos: 'a launchd daemon',
  linux: 'a systemd service',
};

const formatSize = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.ceil(bytes / 1024)} KB` : `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** Direct downloads of the published executables for one OS, or, when none is, who can publish one. */
function Downloads({ platform, releases }: { platform: Platform; releases: AgentRelease[] | undefined }) {
  if (!releases) {
    return null;
  }
  const forOs = releases.filter((r) => r.os_type === platform);
  if (forOs.length === 0) {
    return (
      <Alert tone="info">
        <p>{deviceMessages.agentNotPublished(PLATFORM_LABEL[platform])}</p>
        <p className="mt-1">{deviceMessages.agentNotPublishedDocs}</p>
      </Alert>
    );
  }
  return (
    <div>
      <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Direct download</p>
      <ul className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
        {forOs.map((r) => (
          <li key={r.platform} className="space-y-1 px-3 py-2 text-sm">
            <div className="flex flex-wrap items-center gap-2">
              <a
                href={r.url}
                download={r.file_name}
                className="inline-flex items-center gap-1.5 font-medium text-indigo-600 hover:underline dark:text-indigo-400"
              >
                <Download className="size-3.5" />
                {r.file_name}
              </a>
              <Badge tone="gray">version {r.version}</Badge>
              <span className="text-xs text-slate-500 dark:text-slate-400">{formatSize(r.size)}</span>
            </div>
            <p className="text-xs break-all text-slate-500 dark:text-slate-400">
              SHA-256 <span className="font-mono">{r.sha256}</span>
            </p>
          </li>
        ))}
      </ul>
      <p className="mt-1.5 text-xs text-slate-500 dark:text-slate-400">
        Installing by hand: check the SHA-256, then run{' '}
        <code className="font-mono">outpost-agent install --server URL --token TOKEN</code> as an
        administrator (it enrols the device and registers the service).
      </p>
    </div>
  );
}

/** `isWrapped`: a one-line command shown whole, wrapped anywhere (a token has no spaces). */
function CopyBlock({ text, isWrapped = false }: { text: string; isWrapped?: boolean }) {
  const [isCopied, setIsCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(text).then(() => {
      setIsCopied(true);
      setTimeout(() => setIsCopied(false), 1500);
    });
  };
  return (
    <div className="group relative">
      <pre
        className={cn(
          'overflow-x-auto rounded-lg bg-slate-900 px-4 py-3 pr-12 font-mono text-xs leading-relaxed text-slate-100 dark:bg-black/50',
          isWrapped && 'break-all whitespace-pre-wrap',
        )}
      >
        {text}
      </pre>
      <button
        type="button"
        onClick={copy}
        aria-label="Copy"
        className="absolute top-2 right-2 rounded-md p-1.5 text-slate-400 hover:bg-white/10 hover:text-white"
      >
        {isCopied ? <Check className="size-4 text-emerald-400" /> : <Copy className="size-4" />}
      </button>
    </div>
  );
}

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
        <div className="space-y-4">
          <Alert tone="warning">
            Copy the token now: it is shown only once. Anyone with it can enrol devices into your organization
            {created.expires_at ? ` until ${new Date(created.expires_at).toLocaleDateString()}` : ''}.
          </Alert>
          <div>
            <p className="mb-1.5 text-sm font-medium text-slate-700 dark:text-slate-200">Enrolment token</p>
            <CopyBlock text={created.token} />
          </div>
          <Tabs<Platform>
            active={platform}
            onChange={setPlatform}
            tabs={[
              { key: 'windows', label: 'Windows' },
              { key: 'macos', label: 'macOS' },
              { key: 'linux', label: 'Linux' },
            ]}
          />
          <div className="space-y-2">
            <p className="text-sm text-slate-600 dark:text-slate-300">{INSTALL_SHELL[platform]}:</p>
            <CopyBlock text={installCommand(platform, serverUrl, created.token)} isWrapped />
            <p className="text-xs text-slate-500 dark:text-slate-400">
              It downloads the agent for this device from {serverUrl}, checks its SHA-256, enrols the device
              with the token and runs the agent as {SERVICE_KIND[platform]}. The device appears in the list as
              soon as it connects.
            </p>
          </div>
          {releases.isError ? (
            <Alert>{errorMessage(releases.error, 'Could not load the published agent executables')}</Alert>
          ) : (
            <Downloads platform={platform} releases={releases.data} />
          )}
        </div>
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
          <div>
            <p className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">Active tokens</p>
            {active.length === 0 ? (
              <p className="text-sm text-slate-500 dark:text-slate-400">
                No active tokens. Create one above.
              </p>
            ) : (
              <ul className="max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
                {active.map((t) => (
                  <li key={t.id} className="flex items-center gap-3 px-3 py-2 text-sm">
                    <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">
                      {t.token_prefix}…
                    </code>
                    <div className="min-w-0 flex-1">
                      <p title={t.name ?? undefined} className="truncate text-slate-800 dark:text-slate-200">
                        {t.name ?? 'Unnamed token'}
                      </p>
                      <p className="text-xs text-slate-500 dark:text-slate-400">
                        {t.site_name ?? 'No site'} · used {t.use_count}× · created{' '}
                        {relativeTime(t.created_at).toLowerCase()}
                      </p>
                    </div>
                    {t.expires_at && (
                      <Badge tone="gray">expires {new Date(t.expires_at).toLocaleDateString()}</Badge>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      onClick={() => revoke.mutate(t.id)}
                      disabled={revoke.isPending}
                    >
                      Revoke
                    </Button>
                  </li>
                ))}
              </ul>
            )}
            <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
              A token is shown only when it is created. Create a new one to see the install commands.
            </p>
          </div>
        </div>
      )}
    </Dialog>
  );
}
