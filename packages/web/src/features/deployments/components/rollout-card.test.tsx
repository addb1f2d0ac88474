// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { ReactNode } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@outpost/contract/auth';
import type { DeploymentJobDetail, DeviceDeployment } from '@outpost/contract/deployments';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import type { Rollout, RolloutState, RolloutWave } from '@outpost/contract/rollouts';
import { AuthProvider, profileQueryKey } from '../../../lib/auth';
import { LiveSocketProvider } from '../../../lib/socket';
import { DeviceDeploymentTable } from './device-deployment-table';
import { RolloutCard } from './rollout-card';

// docs/product/rollouts.md#waves, #gates, #rollout-actions, #device-states — the rollout card on a deployment's page,
// its actions (each calls its route), and the device rows' hold badges.

vi.setConfig({ testTimeout: 20_000 });

const TOKEN = 'test-token';
const user = {
  id: 1,
  tenant_id: 7,
  name: 'Alex',
  email: 'a@x',
  role: 'tenant_admin',
} as unknown as SessionUser;

const wave = (index: number, over: Partial<RolloutWave> = {}): RolloutWave => ({
  index,
  name: `Wave ${index + 1}`,
  group_id: null,
  percent: [5, 25, 100][index] ?? 100,
  gate: { min_finished_percent: 90, min_success_percent: 95, soak_minutes: 10 },
  state: 'waiting',
  total_devices: 20,
  completed_devices: 0,
  failed_devices: 0,
  finished_devices: 0,
  started_at: null,
  gate_met_at: null,
  soak_until: null,
  passed_at: null,
  gate_skipped_reason: null,
  gate_skipped_by_name: null,
  ...over,
});

const rollout = (state: RolloutState, over: Partial<Rollout> = {}): Rollout => ({
  mode: 'percent',
  state,
  current_wave: 1,
  state_reason: null,
  state_changed_at: null,
  waves: [
    wave(0, {
      state: 'passed',
      completed_devices: 1,
      finished_devices: 1,
      total_devices: 1,
      started_at: '2026-11-27T09:00:00Z',
      passed_at: '2026-11-27T09:10:00Z',
    }),
    wave(1, {
      state: 'running',
      completed_devices: 3,
      failed_devices: 1,
      finished_devices: 4,
      started_at: '2026-11-27T09:10:00Z',
    }),
    wave(2),
  ],
  ...over,
});

const job = (r: Rollout, status: DeploymentJobDetail['status'] = 'running') =>
  ({
    id: 42,
    name: 'Chrome rollout',
    status,
    package_name: 'Chrome',
    rollout: r,
    rollout_state: r.state,
    deployments: [],
    steps: [],
  }) as unknown as DeploymentJobDetail;

let calls: { url: string; body: unknown }[] = [];
beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.token, TOKEN);
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string, init?: RequestInit) => {
      calls.push({ url, body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined });
      const data = { job_id: 42, rollout: rollout('paused') };
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

const show = (j: DeploymentJobDetail) =>
  render(
    <Providers>
      <RolloutCard job={j} rollout={j.rollout!} />
    </Providers>,
  );
const actionPosts = () => calls.filter((c) => c.url.includes('/rollout/'));

describe('rollout card: states', () => {
  it.each([
    ['running', 'Running'],
    ['paused', 'Paused'],
    ['halted', 'Halted'],
    ['aborted', 'Aborted'],
    ['completed', 'Completed'],
  ] as const)('shows the %s state as "%s"', (state, label) => {
    show(job(rollout(state, { state_reason: state === 'running' ? null : `Reason for ${state}` })));
    expect(screen.getByTestId('rollout-state')).toHaveTextContent(label);
    if (state !== 'running') {
      expect(screen.getByTestId('rollout-reason')).toHaveTextContent(`Reason for ${state}`);
    }
  });

  it('shows each wave with its devices, progress and gate', () => {
    show(job(rollout('running')));
    const rows = screen.getAllByTestId('rollout-wave-row');
    expect(rows).toHaveLength(3);
    expect(rows.map((r) => r.getAttribute('data-wave-state'))).toEqual(['passed', 'running', 'waiting']);
    expect(rows[1]).toHaveAttribute('aria-current', 'step');
    expect(within(rows[1]!).getByText('20 devices')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/3 completed/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/1 failed/)).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/16 pending/)).toBeInTheDocument();
    expect(within(rows[1]!).getByRole('progressbar', { name: 'Wave 2 progress' })).toHaveAttribute(
      'aria-valuenow',
      '20',
    );
    expect(
      within(rows[1]!).getByText('Gate: 90 % finished, 95 % succeeded, soak 10 min'),
    ).toBeInTheDocument();
  });

  it('counts a soaking wave down to the next one and says who skipped a gate, and why', () => {
    const soakUntil = new Date(Date.now() + 4 * 60_000 + 30_000).toISOString();
    show(
      job(
        rollout('running', {
          waves: [
            wave(0, {
              state: 'passed',
              passed_at: '2026-11-27T09:10:00Z',
              gate_skipped_reason: 'Hotfix',
              gate_skipped_by_name: 'Sam',
            }),
            wave(1, { state: 'soaking', soak_until: soakUntil }),
            wave(2),
          ],
        }),
      ),
    );
    const rows = screen.getAllByTestId('rollout-wave-row');
    expect(rows[0]).toHaveAttribute('data-wave-state', 'skipped');
    expect(within(rows[0]!).getByText('Gate skipped by Sam: Hotfix')).toBeInTheDocument();
    expect(within(rows[1]!).getByText(/Next wave in 4:(30|29)/)).toBeInTheDocument();
  });
});

describe('rollout card: actions', () => {
  it('pauses a running rollout with the pause route', async () => {
    show(job(rollout('running')));
    expect(screen.queryByRole('button', { name: 'Resume' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(actionPosts()).toHaveLength(1));
    expect(actionPosts()[0]!.url).toBe('/api/customer/deployments/42/rollout/pause');
  });

  it('resumes after confirming, with the package’s current steps when ticked', async () => {
    show(job(rollout('halted', { state_reason: 'Wave 2: 3 of 20 devices failed' })));
    expect(screen.queryByRole('button', { name: 'Pause' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    const dialog = screen.getByRole('dialog', { name: 'Resume rollout?' });
    await userEvent.click(within(dialog).getByRole('checkbox', { name: "Use the package's current steps" }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resume Rollout' }));
    await waitFor(() => expect(actionPosts()).toHaveLength(1));
    expect(actionPosts()[0]).toEqual({
      url: '/api/customer/deployments/42/rollout/resume',
      body: { use_current_package: true },
    });
  });

  it('resumes an agent update without offering the package’s steps (it has none)', async () => {
    const halted = rollout('halted', { state_reason: 'Wave 1: 1 of 2 devices failed' });
    show({ ...job(halted), kind: 'agent_update', package_name: 'Outpost agent' });
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    const dialog = screen.getByRole('dialog', { name: 'Resume rollout?' });
    expect(within(dialog).queryByRole('checkbox')).toBeNull();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resume Rollout' }));
    await waitFor(() => expect(actionPosts()).toHaveLength(1));
    expect(actionPosts()[0]?.body).toEqual({ use_current_package: false });
  });

  it('needs a reason to skip a gate and sends it', async () => {
    show(job(rollout('running')));
    await userEvent.click(screen.getByRole('button', { name: 'Skip Gate' }));
    const dialog = screen.getByRole('dialog', { name: 'Skip this gate?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Skip Gate' }));
    expect(await within(dialog).findByText('A reason is required to skip a gate')).toBeInTheDocument();
    expect(actionPosts()).toHaveLength(0);
    await userEvent.type(within(dialog).getByLabelText(/Reason/), '  Pilot looks fine  ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Skip Gate' }));
    await waitFor(() => expect(actionPosts()).toHaveLength(1));
    expect(actionPosts()[0]).toEqual({
      url: '/api/customer/deployments/42/rollout/skip-gate',
      body: { reason: 'Pilot looks fine' },
    });
  });

  it('aborts after confirming', async () => {
    show(job(rollout('paused')));
    await userEvent.click(screen.getByRole('button', { name: 'Abort Rollout' }));
    await userEvent.click(
      within(screen.getByRole('dialog', { name: 'Abort rollout?' })).getByRole('button', {
        name: 'Abort Rollout',
      }),
    );
    await waitFor(() => expect(actionPosts()).toHaveLength(1));
    expect(actionPosts()[0]!.url).toBe('/api/customer/deployments/42/rollout/abort');
  });

  it('offers no action on a job that may not be cancelled any more, or a finished rollout', () => {
    show(job(rollout('halted'), 'failed'));
    expect(screen.queryByRole('button', { name: /Resume|Pause|Abort|Skip/ })).toBeNull();
    cleanup();
    show(job(rollout('completed')));
    expect(screen.queryByRole('button', { name: /Resume|Pause|Abort|Skip/ })).toBeNull();
  });

  it("shows the server's refusal", async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ success: false, error: 'The rollout is not paused' }), {
            status: 409,
          }),
        ),
      ),
    );
    show(job(rollout('paused')));
    await userEvent.click(screen.getByRole('button', { name: 'Resume' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Resume Rollout' }));
    expect(await screen.findByText('The rollout is not paused')).toBeInTheDocument();
  });
});

describe('device rows: holds', () => {
  const row = (id: number, over: Partial<DeviceDeployment>) =>
    ({
      id,
      hostname: `WS-${id}`,
      status: 'pending',
      device_guid: `g-${id}`,
      ...over,
    }) as unknown as DeviceDeployment;

  it('shows the wave column and each hold with its words, window opening and note', () => {
    const opening = new Date(Date.now() + 2 * 3600_000 + 60_000).toISOString();
    render(
      <Providers>
        <DeviceDeploymentTable
          jobId={42}
          rollout={rollout('halted')}
          onLogs={() => undefined}
          deployments={[
            row(1, { wave_index: 2, hold: 'wave' }),
            row(2, { wave_index: 1, hold: 'halted', hold_note: 'Held: the rollout halted at wave 2' }),
            row(3, { wave_index: 1, hold: 'window', hold_until: opening }),
            row(4, { wave_index: 0, hold: 'rebooting' }),
          ]}
        />
      </Providers>,
    );
    expect(screen.getAllByRole('columnheader', { name: 'Wave' }).length).toBeGreaterThan(0);
    const holds = screen.getAllByTestId('device-hold');
    expect(holds.map((h) => h.getAttribute('data-hold'))).toEqual(['wave', 'halted', 'window', 'rebooting']);
    expect(holds[0]).toHaveTextContent('Waiting for its wave');
    expect(holds[1]).toHaveTextContent('Held: rollout halted');
    expect(holds[1]).toHaveTextContent('Held: the rollout halted at wave 2');
    expect(holds[2]).toHaveTextContent('Waiting for window');
    expect(holds[2]).toHaveTextContent('opens in 2 hours');
    expect(holds[3]).toHaveTextContent('Rebooting');
    expect(screen.getAllByText('Wave 3').length).toBeGreaterThan(0);
  });

  it('has no wave column without a rollout', () => {
    render(
      <Providers>
        <DeviceDeploymentTable jobId={42} onLogs={() => undefined} deployments={[row(1, {})]} />
      </Providers>,
    );
    expect(screen.queryByRole('columnheader', { name: 'Wave' })).toBeNull();
    expect(screen.queryByTestId('device-hold')).toBeNull();
  });
});
