import { Download } from 'lucide-react';
import type { CreatedEnrollmentToken } from '@outpost/contract/agents';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import { deviceMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { CopyBlock } from '../../../components/ui/copy-block';
import { Tabs } from '../../../components/ui/tabs';
import { errorMessage } from '../../../lib/api-client';

export type Platform = 'windows' | 'macos' | 'linux';

const PLATFORM_LABEL: Record<Platform, string> = { windows: 'Windows', macos: 'macOS', linux: 'Linux' };

/**
 * The one-line install: the server's install script downloads the agent executable
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

/** A token just created: the token itself, the install command for each OS and the downloads. */
export function CreatedTokenView({
  created,
  serverUrl,
  platform,
  onPlatformChange,
  releases,
}: {
  created: CreatedEnrollmentToken;
  serverUrl: string;
  platform: Platform;
  onPlatformChange: (platform: Platform) => void;
  releases: { isError: boolean; error: unknown; data: AgentRelease[] | undefined };
}) {
  return (
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
        onChange={onPlatformChange}
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
          It downloads the agent for this device from {serverUrl}, checks its SHA-256, enrols the device with
          the token and runs the agent as {SERVICE_KIND[platform]}. The device appears in the list as soon as
          it connects.
        </p>
      </div>
      {releases.isError ? (
        <Alert>{errorMessage(releases.error, 'Could not load the published agent executables')}</Alert>
      ) : (
        <Downloads platform={platform} releases={releases.data} />
      )}
    </div>
  );
}
