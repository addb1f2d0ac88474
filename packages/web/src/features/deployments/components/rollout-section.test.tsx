// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { ReactNode } from 'react';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@outpost/contract/auth';
import type { DeploymentCreateBody, DeploymentJob } from '@outpost/contract/deployments';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { ToastProvider } from '../../../components/ui/toast';
import { AuthProvider, profileQueryKey } from '../../../lib/auth';
import { LiveSocketProvider } from '../../../lib/socket';
import DeployDialog from './deploy-dialog';

// docs/product/rollouts.md#the-rollout-section-of-the-deploy-dialog — collapsed and off by default (the body is
// unchanged), the waves and gate it sends, and its rules.

const TOKEN = 'test-token';
const user = {
  id: 1,
  tenant_id: 7,
  name: 'Alex',
  email: 'a@x',
  role: 'tenant_admin',
} as unknown as SessionUser;
const groups = [
  { id: 31, name: 'Pilot', kind: 'static', member_count: 3 },
  { id: 32, name: 'Office', kind: 'dynamic', member_count: 40 },
];

// a whole dialog driven by a user: slower than a unit under a loaded machine
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.token, TOKEN);
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      const list = url.includes('/customer/groups')
        ? groups
        : url.includes('deployment-packages')
          ? [{ id: 2, name: 'Chrome', target_os: 'windows', step_count: 1, is_changed_since_deploy: false }]
          : [
              {
                id: 11,
                hostname: 'WS-011',
                status: 'online',
                ip_address: '10.0.0.11',
                device_guid: 'guid-11',
              },
            ];
      const data = { data: list, pagination: { page: 1, limit: 100, total: list.length, totalPages: 1 } };
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
        <ToastProvider>
          <AuthProvider>
            <LiveSocketProvider tenantId={null} userId={null} token={null}>
              {children}
            </LiveSocketProvider>
          </AuthProvider>
        </ToastProvider>
      </MemoryRouter>
    </QueryClientProvider>
  );
}

const job = (body: DeploymentCreateBody): DeploymentJob => ({
  id: 100,
  name: body.job_name ?? '',
  description: null,
  status: 'pending',
  package_id: body.package_id ?? null,
  package_name: 'x',
  created_by_name: 'Alex',
  created_at: '2026-11-23T00:00:00Z',
  scheduled_at: null,
  started_at: null,
  completed_at: null,
  total_devices: 1,
  completed_devices: 0,
  failed_devices: 0,
});

async function open(create = vi.fn((body: DeploymentCreateBody) => Promise.resolve(job(body)))) {
  render(
    <Providers>
      <DeployDialog
        isOpen
        onClose={() => undefined}
        create={create}
        initialPackages={[{ id: 2, name: 'Chrome' }]}
        initialDevices={[{ id: 11, hostname: 'WS-011', status: 'online' }]}
      />
    </Providers>,
  );
  // the chosen package and device are loaded: the dialog's own rules hold
  await waitFor(() => expect(submit()).not.toHaveAttribute('aria-disabled'));
  return create;
}

const submit = () => screen.getByRole('button', { name: 'Deploy Now' });
const section = () => screen.getByRole('region', { name: 'Rollout' });
const expand = () => userEvent.click(within(section()).getByRole('button', { name: /Rollout/ }));
const turnOn = () => userEvent.click(screen.getByRole('switch', { name: 'Deploy in waves' }));
const waveInput = (n: number) => screen.getByRole('spinbutton', { name: new RegExp(`^Wave ${n}:`) });

describe('rollout section: off by default', () => {
  it('is collapsed and sends the body without a rollout', async () => {
    const create = await open();
    const toggle = within(section()).getByRole('button', { name: /Rollout/ });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(toggle).toHaveTextContent('Off: all devices at once');
    expect(screen.queryByRole('switch', { name: 'Deploy in waves' })).toBeNull();
    await userEvent.click(submit());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    const body = create.mock.calls[0]![0];
    expect(body).not.toHaveProperty('rollout');
    expect(body).not.toHaveProperty('only_in_windows');
  });

  it('opening the section alone changes nothing that is sent', async () => {
    const create = await open();
    await expand();
    expect(screen.getByRole('switch', { name: 'Deploy in waves' })).toHaveAttribute('aria-checked', 'false');
    await userEvent.click(submit());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]![0]).not.toHaveProperty('rollout');
  });
});

describe('rollout section: percent waves', () => {
  it('starts from 5 % → 25 % → 100 % with the default gate and sends that plan', async () => {
    const create = await open();
    await expand();
    await turnOn();
    expect(waveInput(1)).toHaveValue(5);
    expect(waveInput(2)).toHaveValue(25);
    expect(waveInput(3)).toHaveValue(100);
    expect(waveInput(3)).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Minimum finished (%)')).toHaveValue(90);
    expect(screen.getByLabelText('Minimum success (%)')).toHaveValue(95);
    expect(screen.getByLabelText('Soak time (minutes)')).toHaveValue(0);
    expect(screen.getByTestId('gate-sentence')).toHaveTextContent(
      'A wave passes when 90 % of its devices have finished (completed, failed or expired: an offline device expires after the offline limit, so it never blocks the gate for ever) and at least 95 % succeeded',
    );
    expect(screen.getByTestId('gate-sentence')).toHaveTextContent(
      "If more than 5 % of a wave's devices fail, the rollout halts by itself.",
    );
    await userEvent.click(submit());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]![0].rollout).toEqual({
      mode: 'percent',
      waves: [{ percent: 5 }, { percent: 25 }, { percent: 100 }],
      gate: { min_finished_percent: 90, min_success_percent: 95, soak_minutes: 0 },
    });
  });

  it('adds a wave before the last, removes one, and sends the gate as typed', async () => {
    const create = await open();
    await expand();
    await turnOn();
    await userEvent.click(screen.getByRole('button', { name: 'Add wave' }));
    expect(screen.getAllByTestId('rollout-wave')).toHaveLength(4);
    expect(waveInput(3)).toHaveValue(63);
    expect(waveInput(4)).toHaveValue(100);
    await userEvent.click(screen.getByRole('button', { name: 'Remove wave 1' }));
    await userEvent.clear(screen.getByLabelText('Minimum success (%)'));
    await userEvent.type(screen.getByLabelText('Minimum success (%)'), '80');
    await userEvent.clear(screen.getByLabelText('Soak time (minutes)'));
    await userEvent.type(screen.getByLabelText('Soak time (minutes)'), '30');
    expect(screen.getByTestId('gate-sentence')).toHaveTextContent('If more than 20 %');
    await userEvent.click(screen.getByRole('checkbox', { name: 'Run only inside maintenance windows' }));
    await userEvent.click(submit());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    const body = create.mock.calls[0]![0];
    expect(body.rollout).toEqual({
      mode: 'percent',
      waves: [{ percent: 25 }, { percent: 63 }, { percent: 100 }],
      gate: { min_finished_percent: 90, min_success_percent: 80, soak_minutes: 30 },
    });
    expect(body.only_in_windows).toBe(true);
  });

  it('refuses waves that do not grow, and a gate out of range, before sending', async () => {
    const create = await open();
    await expand();
    await turnOn();
    await userEvent.clear(waveInput(1));
    await userEvent.type(waveInput(1), '30');
    expect(
      within(section()).getByText('Each wave must reach more devices than the one before'),
    ).toBeInTheDocument();
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    expect(submit()).toHaveAccessibleDescription('Each wave must reach more devices than the one before');
    await userEvent.clear(waveInput(1));
    await userEvent.type(waveInput(1), '10');
    await userEvent.clear(screen.getByLabelText('Minimum finished (%)'));
    await userEvent.type(screen.getByLabelText('Minimum finished (%)'), '0');
    expect(
      within(section()).getByText('Minimum finished must be a whole number from 1 to 100'),
    ).toBeInTheDocument();
    await userEvent.click(submit());
    expect(create).not.toHaveBeenCalled();
  });

  it('keeps at least 2 waves and at most 10', async () => {
    await open();
    await expand();
    await turnOn();
    await userEvent.click(screen.getByRole('button', { name: 'Remove wave 1' }));
    expect(screen.getByRole('button', { name: 'Remove wave 1' })).toHaveAttribute('disabled');
    for (let i = 0; i < 8; i += 1) {
      await userEvent.click(screen.getByRole('button', { name: 'Add wave' }));
    }
    expect(screen.getAllByTestId('rollout-wave')).toHaveLength(10);
    expect(screen.getByRole('button', { name: 'Add wave' })).toHaveAttribute('aria-disabled', 'true');
  });
});

describe('rollout section: group waves', () => {
  it('sends the groups in order and says the rest form a last wave', async () => {
    const create = await open();
    await expand();
    await turnOn();
    await userEvent.click(screen.getByRole('radio', { name: /By groups/ }));
    expect(screen.getByText(/devices that are in none of these groups/)).toBeInTheDocument();
    const wave1 = screen.getByRole('combobox', { name: 'Wave 1 group' });
    await within(wave1).findByRole('option', { name: /Pilot/ });
    // an empty group wave is said once the user tries to send
    await userEvent.click(submit());
    expect(within(section()).getAllByText('Choose a group for this wave')).toHaveLength(2);
    await userEvent.selectOptions(wave1, '31');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Wave 2 group' }), '31');
    expect(within(section()).getByText('A group can be in one wave only')).toBeInTheDocument();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Wave 2 group' }), '32');
    await userEvent.click(submit());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(create.mock.calls[0]![0].rollout).toEqual({
      mode: 'groups',
      waves: [{ group_id: 31 }, { group_id: 32 }],
      gate: { min_finished_percent: 90, min_success_percent: 95, soak_minutes: 0 },
    });
  });
});

describe('rollout section: server errors', () => {
  it("shows the server's 400 message as the dialog shows errors", async () => {
    await open(vi.fn(() => Promise.reject(new Error('The waves must grow and end at 100'))));
    await expand();
    await turnOn();
    await userEvent.click(submit());
    expect(await screen.findByText(/The waves must grow and end at 100/)).toBeInTheDocument();
  });
});
