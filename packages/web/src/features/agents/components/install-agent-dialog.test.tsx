// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AgentRelease } from '@outpost/contract/agent-releases';
import { deviceMessages } from '@outpost/contract/messages';
import { ToastProvider } from '../../../components/ui/toast';
import { installCommand } from './created-token-view';
import { InstallAgentDialog } from './install-agent-dialog';

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ id: 1, tenant_id: 7, role: 'tenant_admin' }) }));

const TOKEN = 'opt_0123456789abcdefghijklmnop';
const linux: AgentRelease = {
  platform: 'linux-x64',
  os_type: 'linux',
  version: '1.0.1',
  sha256: 'c'.repeat(64),
  size: 96 * 1024 * 1024,
  node: 'v24.11.1',
  file_name: 'outpost-agent-linux-x64',
  url: '/api/agent/releases/linux-x64',
  published_at: '2026-11-23T06:00:00.000Z',
};

const ok = (data: unknown) => new Response(JSON.stringify({ success: true, data }), { status: 200 });

function stubServer(releases: AgentRelease[]) {
  const fetch = vi.fn((url: string, init?: RequestInit) => {
    if (url === '/api/agent/releases') {
      return Promise.resolve(ok(releases));
    }
    if (url === '/api/customer/agents/enrollment-tokens' && init?.method === 'POST') {
      return Promise.resolve(
        ok({
          id: 1,
          name: null,
          site_id: null,
          site_name: null,
          token_prefix: TOKEN.slice(0, 10),
          state: 'active',
          created_at: '2026-11-23T06:00:00.000Z',
          expires_at: null,
          revoked_at: null,
          last_used_at: null,
          use_count: 0,
          created_by_name: 'Admin',
          token: TOKEN,
          enroll_command: '',
        }),
      );
    }
    return Promise.resolve(ok([]));
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

async function openWithToken() {
  render(
    <QueryClientProvider client={new QueryClient()}>
      <ToastProvider>
        <InstallAgentDialog isOpen onClose={() => undefined} />
      </ToastProvider>
    </QueryClientProvider>,
  );
  const user = userEvent.setup();
  await user.click(screen.getByRole('button', { name: 'Create token' }));
  await screen.findByText('Enrolment token', { exact: true });
  return user;
}

describe('Install Agent dialog (install scripts and executables)', () => {
  afterEach(() => {
    cleanup();
    vi.unstubAllGlobals();
  });

  const origin = () => window.location.origin;

  it('shows the one-line PowerShell install with the server and the token as an argument', async () => {
    stubServer([linux]);
    await openWithToken();
    expect(screen.getByText(installCommand('windows', origin(), TOKEN))).toBeInTheDocument();
    expect(installCommand('windows', origin(), TOKEN)).toBe(
      `& ([scriptblock]::Create((irm ${origin()}/api/agent/install.ps1))) -Token ${TOKEN}`,
    );
    // nothing published for Windows: said in a customer's words, pointing administrators to the docs
    expect(await screen.findByText(deviceMessages.agentNotPublished('Windows'))).toBeInTheDocument();
    expect(screen.getByText(deviceMessages.agentNotPublishedDocs)).toBeInTheDocument();
  });

  it('on Linux, the curl | sudo sh command and the direct download with version and SHA-256', async () => {
    stubServer([linux]);
    const user = await openWithToken();
    await user.click(screen.getByRole('tab', { name: 'Linux' }));
    expect(
      screen.getByText(`curl -fsSL ${origin()}/api/agent/install.sh | sudo sh -s -- --token ${TOKEN}`),
    ).toBeInTheDocument();
    const link = await screen.findByRole('link', { name: /outpost-agent-linux-x64/ });
    expect(link).toHaveAttribute('href', '/api/agent/releases/linux-x64');
    const item = link.closest('li')!;
    expect(within(item).getByText('version 1.0.1')).toBeInTheDocument();
    expect(within(item).getByText('96.0 MB')).toBeInTheDocument();
    expect(within(item).getByText('c'.repeat(64))).toBeInTheDocument();
    expect(screen.queryByText(deviceMessages.agentNotPublished('Linux'))).not.toBeInTheDocument();
  });

  it('never shows customers operator text: no build commands, no environment variables, no source checkout', async () => {
    stubServer([]);
    const user = await openWithToken();
    for (const os of ['Windows', 'macOS', 'Linux'] as const) {
      await user.click(screen.getByRole('tab', { name: os }));
      expect(await screen.findByText(deviceMessages.agentNotPublished(os))).toBeInTheDocument();
      const text = screen.getByRole('dialog').textContent ?? '';
      expect(text).not.toMatch(/npm |AGENT_RELEASES_DIR|build:agent-exe|from source/i);
    }
  });
});
