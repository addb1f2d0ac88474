// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { ReactNode } from 'react';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@outpost/contract/auth';
import type { DeploymentStepSummary, DeviceDeployment, StepLog } from '@outpost/contract/deployments';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { AuthProvider, profileQueryKey } from '../../../lib/auth';
import { LiveSocketProvider } from '../../../lib/socket';
import { StepLogDialog } from './step-log-dialog';

// The step-log dialog reads the logs a page at a time (SECURITY.md R2-13) and still shows them
// all: every page loaded so far, and "Load more" while the server has more.

const TOKEN = 'test-token';
const user = {
  id: 1,
  tenant_id: 7,
  name: 'Alex',
  email: 'a@x',
  role: 'tenant_admin',
} as unknown as SessionUser;

const dd = {
  id: 5,
  device_id: 'guid-5',
  hostname: 'WS-005',
  status: 'completed',
  error_message: null,
} as unknown as DeviceDeployment;

const steps: DeploymentStepSummary[] = [1, 2, 3].map((n) => ({
  step_order: n,
  step_name: `Step ${n}`,
  step_type: 'CMD',
  timeout_seconds: 60,
  retry_count: 1,
  fail_deployment_on_error: true,
}));

const log = (step: number, attempt: number): StepLog => ({
  id: step * 10 + attempt,
  step_order: step,
  step_name: `Step ${step}`,
  attempt,
  status: attempt === 2 ? 'completed' : 'failed',
  duration_ms: 1000,
  exit_code: attempt === 2 ? 0 : 1,
  started_at: '2026-11-26T10:00:00Z',
  completed_at: '2026-11-26T10:00:01Z',
  stdout_log: `out ${step}.${attempt}`,
  output: null,
  stderr_log: '',
  error_message: null,
});
// six attempts, four on the first page
const all = [log(1, 1), log(1, 2), log(2, 1), log(2, 2), log(3, 1), log(3, 2)];

let requests: URL[] = [];
beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.token, TOKEN);
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const u = new URL(url, 'http://localhost');
      requests.push(u);
      const page = Number(u.searchParams.get('page'));
      const data = {
        device_deployment: dd,
        job_id: 9,
        logs: page === 1 ? all.slice(0, 4) : all.slice(4),
        pagination: { page, limit: 4, total: all.length, totalPages: 2 },
      };
      return Promise.resolve(new Response(JSON.stringify({ success: true, data }), { status: 200 }));
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function Providers({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  client.setQueryData(profileQueryKey(TOKEN), user);
  return (
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <AuthProvider>
          <LiveSocketProvider tenantId={null} userId={null} token={null}>
            {children}
          </LiveSocketProvider>
        </AuthProvider>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

const section = (order: number) =>
  screen.getAllByTestId('step-log').find((el) => el.getAttribute('data-step-order') === String(order))!;

describe('StepLogDialog: paged logs', () => {
  it('shows the first page, says more are on a later page, and loads them on request', async () => {
    render(
      <Providers>
        <StepLogDialog jobId={9} deviceDeployment={dd} steps={steps} onClose={() => undefined} />
      </Providers>,
    );
    expect(await screen.findByText('out 2.2')).toBeInTheDocument();
    expect(screen.getByText(messages.stepLogsMore(4, 6))).toBeInTheDocument();
    // step 3's attempts are on page 2: not "did not run"
    expect(within(section(3)).getByText(/on a later page/)).toBeInTheDocument();
    expect(within(section(3)).queryByText('This step did not run on this device.')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByText('out 3.2')).toBeInTheDocument();
    expect(screen.getByText('out 1.1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
    expect(within(section(3)).getAllByTestId('step-attempt')).toHaveLength(2);
    expect(requests.map((u) => u.searchParams.get('page'))).toEqual(['1', '2']);
  });
});
