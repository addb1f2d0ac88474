// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import type { ReactNode } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@outpost/contract/auth';
import type { DeploymentCreateBody, DeploymentJob } from '@outpost/contract/deployments';
import type { DeviceListItem } from '@outpost/contract/devices';
import { STORAGE_KEYS } from '@outpost/contract/limits';
import { deploymentMessages as messages, packageMessages } from '@outpost/contract/messages';
import type { PackageSummary } from '@outpost/contract/packages';
import { ToastProvider } from '../../../components/ui/toast';
import { AuthProvider, profileQueryKey } from '../../../lib/auth';
import { formatDateTime } from '../../../lib/format';
import { LiveSocketProvider } from '../../../lib/socket';
import DeployDialog from './deploy-dialog';
import type { DeployDialogProps } from './deploy-dialog';

// docs/product/deployments.md#deploy-dialog, #deploy-dialog-rules (rules in order, disabled rules).

const TOKEN = 'test-token';
const user = {
  id: 1,
  tenant_id: 7,
  name: 'Alex',
  email: 'a@x',
  role: 'tenant_admin',
} as unknown as SessionUser;

const pkg = (id: number, name: string): PackageSummary => ({
  id,
  name,
  description: null,
  target_os: 'windows',
  os_version_requirement: null,
  architecture: 'x64',
  package_version: '1.0.0',
  is_template: false,
  step_count: 2,
  created_at: '2026-11-01T00:00:00Z',
  updated_at: '2026-11-01T00:00:00Z',
  created_by_name: 'Alex',
  site_id: null,
  updated_by_name: 'Alex',
  last_deployed_at: null,
  is_changed_since_deploy: false,
});
const device = (id: number, hostname: string, status: DeviceListItem['status']) =>
  ({ id, hostname, status, ip_address: `10.0.0.${id}`, device_guid: `guid-${id}` }) as DeviceListItem;

const changed = { updated_by_name: 'Sam', updated_at: '2026-11-20T09:30Z', is_changed_since_deploy: true };
const packages = [pkg(1, '7-Zip'), { ...pkg(2, 'Chrome'), ...changed }, pkg(3, 'Notepad++')];
const devices = [
  device(11, 'WS-011', 'online'),
  device(12, 'WS-012', 'loggedin'),
  device(13, 'WS-013', 'offline'),
];

let requests: string[] = [];
function stubServer({ fail = false } = {}) {
  requests = [];
  vi.stubGlobal(
    'fetch',
    vi.fn((url: string) => {
      requests.push(url);
      if (fail) {
        return Promise.resolve(
          new Response(JSON.stringify({ success: false, error: 'boom' }), { status: 500 }),
        );
      }
      const data = url.includes('deployment-packages')
        ? { data: packages, pagination: { page: 1, limit: 100, total: 3, totalPages: 1 } }
        : { data: devices, pagination: { page: 1, limit: 100, total: 3, totalPages: 1 } };
      return Promise.resolve(new Response(JSON.stringify({ success: true, data }), { status: 200 }));
    }),
  );
}

const job = (body: DeploymentCreateBody, id: number): DeploymentJob => ({
  id,
  name: body.job_name ?? '',
  description: body.job_description ?? null,
  status: 'pending',
  package_id: body.package_id ?? null,
  package_name: 'x',
  created_by_name: 'Alex',
  created_at: '2026-11-23T00:00:00Z',
  scheduled_at: body.scheduled_at ?? null,
  started_at: null,
  completed_at: null,
  total_devices: body.device_ids?.length ?? 0,
  completed_devices: 0,
  failed_devices: 0,
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

function open(props: Partial<DeployDialogProps> = {}) {
  const create = props.create ?? vi.fn((body: DeploymentCreateBody) => Promise.resolve(job(body, 100)));
  const onClose = vi.fn();
  const onSuccess = vi.fn();
  render(
    <Providers>
      <DeployDialog isOpen onClose={onClose} onSuccess={onSuccess} create={create} {...props} />
    </Providers>,
  );
  return { create, onClose, onSuccess };
}

const group = (name: 'Packages' | 'Devices') => screen.getByRole('group', { name });
const submit = () => screen.getByRole('button', { name: /Deploy Now|Schedule Deployment/ });

async function pick(name: 'Packages' | 'Devices', label: string) {
  const g = group(name);
  await userEvent.click(within(g).getByRole('checkbox', { name: new RegExp(label) }));
  await userEvent.click(within(g).getByRole('button', { name: 'Add' }));
}

beforeEach(() => {
  localStorage.setItem(STORAGE_KEYS.token, TOKEN);
  stubServer();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

describe('deploy dialog: loading (docs/product/deployments.md#deploy-dialog, #deploy-dialog-rules, #limits)', () => {
  it('loads up to 100 packages and 100 online devices and offers only online or logged-in ones', async () => {
    open();
    const available = await within(group('Devices')).findByRole('list', { name: 'Available devices' });
    expect(within(available).getByText('WS-011')).toBeInTheDocument();
    expect(within(available).getByText('WS-012')).toBeInTheDocument();
    expect(within(available).queryByText('WS-013')).toBeNull();
    expect(requests.some((u) => u.includes('/customer/deployment-packages') && u.includes('limit=100'))).toBe(
      true,
    );
    expect(
      requests.some(
        (u) => u.includes('/customer/devices') && u.includes('limit=100') && u.includes('status=online'),
      ),
    ).toBe(true);
  });

  it('says which chosen packages changed since they were last deployed, by whom and when', async () => {
    open({ initialPackages: [{ id: 1, name: '7-Zip' }] });
    await within(group('Packages')).findByRole('checkbox', { name: /Chrome/ });
    expect(screen.queryByTestId('changed-packages')).toBeNull();
    await pick('Packages', 'Chrome');
    const note = packageMessages.changedSinceDeploy('Sam', formatDateTime(changed.updated_at));
    expect(screen.getByTestId('changed-packages')).toHaveTextContent(`Chrome: ${note}`);
  });

  it('shows the load failure in the spec words', async () => {
    stubServer({ fail: true });
    open();
    expect(await screen.findByText(messages.dialogLoad)).toBeInTheDocument();
  });

  it("opens with the opener's packages and devices selected and names the job after the package", () => {
    open({
      initialPackages: [{ id: 2, name: 'Chrome' }],
      initialDevices: [{ id: 11, hostname: 'WS-011', status: 'online' }],
    });
    const selectedPackages = within(group('Packages')).getByRole('list', { name: 'Selected packages' });
    expect(within(selectedPackages).getByText('Chrome')).toBeInTheDocument();
    expect(within(group('Devices')).getByRole('list', { name: 'Selected devices' })).toHaveTextContent(
      'WS-011',
    );
    expect(screen.getByLabelText(/Job Name/)).toHaveValue('Deploy Chrome');
    expect(screen.getByTestId('deploy-summary')).toHaveTextContent('Deploying to 1 device(s)');
  });
});

describe('deploy dialog: rules in order and the submit button (docs/product/deployments.md#deploy-dialog-rules)', () => {
  it('keeps submit disabled, saying why, until a package, a device and a name are there', async () => {
    open();
    await within(group('Packages')).findByText('7-Zip');
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    expect(submit()).toHaveAccessibleDescription(messages.selectPackage);

    await pick('Packages', '7-Zip');
    expect(submit()).toHaveAccessibleDescription(messages.selectDevice);

    await pick('Devices', 'WS-011');
    expect(submit()).not.toHaveAttribute('aria-disabled');

    await userEvent.clear(screen.getByLabelText(/Job Name/));
    await userEvent.type(screen.getByLabelText(/Job Name/), '   ');
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    expect(submit()).toHaveAccessibleDescription(messages.jobNameRequired);
  });

  it('refuses devices that are not online or logged in, with the spec words, before any call', async () => {
    const { create } = open({
      initialPackages: [{ id: 1, name: '7-Zip' }],
      initialDevices: [{ id: 13, hostname: 'WS-013', status: 'offline' }],
    });
    await userEvent.click(submit());
    expect(await screen.findByText(messages.devicesOffline)).toBeInTheDocument();
    expect(create).not.toHaveBeenCalled();
  });

  it('disables cancel, close and submit while creating', async () => {
    let finish: (j: DeploymentJob) => void = () => undefined;
    const create = vi.fn(() => new Promise<DeploymentJob>((resolve) => (finish = resolve)));
    open({
      create,
      initialPackages: [{ id: 1, name: '7-Zip' }],
      initialDevices: [{ id: 11, hostname: 'WS-011', status: 'online' }],
    });
    await userEvent.click(submit());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    expect(screen.getByRole('button', { name: 'Cancel' })).toHaveAttribute('aria-disabled', 'true');
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
    expect(submit()).toHaveAttribute('aria-disabled', 'true');
    finish(job({ package_id: 1, device_ids: [11], job_name: 'Deploy 7-Zip' }, 5));
  });
});

describe('deploy dialog: creating (docs/product/deployments.md#deploy-dialog)', () => {
  it('creates one job per package named "{job name} - {package name}", then resets, closes and calls back', async () => {
    let next = 100;
    const create = vi.fn((body: DeploymentCreateBody) => Promise.resolve(job(body, next++)));
    const { onClose, onSuccess } = open({
      create,
      initialPackages: [
        { id: 1, name: '7-Zip' },
        { id: 2, name: 'Chrome' },
      ],
      initialDevices: [
        { id: 11, hostname: 'WS-011', status: 'online' },
        { id: 12, hostname: 'WS-012', status: 'loggedin' },
      ],
    });
    expect(screen.getByLabelText(/Job Name/)).toHaveValue('Deploy 2 packages');
    await userEvent.type(screen.getByLabelText('Description'), 'Quarterly update');
    await userEvent.click(submit());
    await waitFor(() => expect(onSuccess).toHaveBeenCalledTimes(1));
    expect(create.mock.calls.map(([b]) => b)).toEqual([
      {
        package_id: 1,
        device_ids: [11, 12],
        job_name: 'Deploy 2 packages - 7-Zip',
        job_description: 'Quarterly update',
        scheduled_at: null,
      },
      {
        package_id: 2,
        device_ids: [11, 12],
        job_name: 'Deploy 2 packages - Chrome',
        job_description: 'Quarterly update',
        scheduled_at: null,
      },
    ]);
    expect(onClose).toHaveBeenCalled();
    expect(onSuccess.mock.calls[0]![0]).toHaveLength(2);
  });

  it('reports a partial failure with the counts and the first error', async () => {
    const create = vi.fn((body: DeploymentCreateBody) =>
      body.package_id === 1
        ? Promise.resolve(job(body, 1))
        : Promise.reject(new Error(body.package_id === 2 ? 'Package not found' : 'other')),
    );
    const onCreated = vi.fn();
    const { onClose } = open({
      create,
      onCreated,
      initialPackages: [
        { id: 1, name: '7-Zip' },
        { id: 2, name: 'Chrome' },
        { id: 3, name: 'Notepad++' },
      ],
      initialDevices: [{ id: 11, hostname: 'WS-011', status: 'online' }],
    });
    await userEvent.click(submit());
    expect(await screen.findByText(messages.partialFailure(1, 2, 'Package not found'))).toBeInTheDocument();
    expect(
      screen.getByText('1 deployment(s) created successfully, but 2 failed: Package not found'),
    ).toBeInTheDocument();
    expect(onClose).not.toHaveBeenCalled();
    expect(onCreated).toHaveBeenCalledTimes(1);
    // only the packages that failed stay selected
    const selected = within(group('Packages')).getByRole('list', { name: 'Selected packages' });
    expect(within(selected).queryByText('7-Zip')).toBeNull();
    expect(within(selected).getByText('Chrome')).toBeInTheDocument();
  });

  it('reports a total failure with the server error, or the spec fallback', async () => {
    const create = vi.fn(() => Promise.reject(new Error('This package has no steps.')));
    open({
      create,
      initialPackages: [{ id: 1, name: '7-Zip' }],
      initialDevices: [{ id: 11, hostname: 'WS-011', status: 'online' }],
    });
    await userEvent.click(submit());
    expect(
      await screen.findByText('Failed to create deployments: This package has no steps.'),
    ).toBeInTheDocument();
  });

  it('falls back to "Failed to create deployment job" when the server says nothing', async () => {
    const create = vi.fn(() => Promise.reject(new Error('')));
    open({
      create,
      initialPackages: [{ id: 1, name: '7-Zip' }],
      initialDevices: [{ id: 11, hostname: 'WS-011', status: 'online' }],
    });
    await userEvent.click(submit());
    expect(await screen.findByText(messages.totalFailure(messages.createFailed))).toBeInTheDocument();
  });

  it('schedules for later: date (min today) and time only then, the summary and the label follow', async () => {
    const { create } = open({
      initialPackages: [{ id: 1, name: '7-Zip' }],
      initialDevices: [{ id: 11, hostname: 'WS-011', status: 'online' }],
    });
    expect(screen.queryByLabelText('Date')).toBeNull();
    await userEvent.click(screen.getByRole('radio', { name: /Schedule for Later/ }));
    const date = screen.getByLabelText('Date');
    expect(date).toHaveAttribute('min');
    fireEvent.change(date, { target: { value: '2099-01-02' } });
    fireEvent.change(screen.getByLabelText('Time'), { target: { value: '09:30' } });
    expect(screen.getByTestId('deploy-summary')).toHaveTextContent(
      'Deploying to 1 device(s) at 2099-01-02 09:30',
    );
    expect(submit()).toHaveTextContent('Schedule Deployment');
    await userEvent.click(submit());
    await waitFor(() => expect(create).toHaveBeenCalledTimes(1));
    const body = (create as ReturnType<typeof vi.fn>).mock.calls[0]![0] as DeploymentCreateBody;
    expect(body.scheduled_at).toBe(new Date('2099-01-02T09:30').toISOString());
  });
});

describe('pick list (docs/product/deployments.md#deploy-dialog)', () => {
  it('adds, adds all, removes, clears all and searches', async () => {
    open();
    const g = await waitFor(() => {
      const el = group('Packages');
      expect(within(el).getByText('7-Zip')).toBeInTheDocument();
      return el;
    });
    const selected = () => within(g).getByText(/^Selected \(/);
    await userEvent.click(within(g).getByRole('button', { name: 'Add All' }));
    expect(selected()).toHaveTextContent('Selected (3)');
    expect(screen.getByLabelText(/Job Name/)).toHaveValue('Deploy 3 packages');

    await userEvent.click(
      within(within(g).getByRole('list', { name: 'Selected packages' })).getByRole('checkbox', {
        name: /Chrome/,
      }),
    );
    await userEvent.click(within(g).getByRole('button', { name: 'Remove' }));
    expect(selected()).toHaveTextContent('Selected (2)');
    expect(within(g).getByRole('list', { name: 'Available packages' })).toHaveTextContent('Chrome');

    await userEvent.click(within(g).getByRole('button', { name: 'Clear All' }));
    expect(within(g).getByText(/^Available \(/)).toHaveTextContent('Available (3)');
    expect(screen.getByLabelText(/Job Name/)).toHaveValue('');

    await userEvent.type(within(g).getByRole('searchbox', { name: 'Search packages' }), 'note');
    const available = within(g).getByRole('list', { name: 'Available packages' });
    expect(within(available).getAllByRole('checkbox')).toHaveLength(1);
    await userEvent.click(within(g).getByRole('button', { name: 'Add All' }));
    expect(selected()).toHaveTextContent('Selected (1)');
    expect(screen.getByLabelText(/Job Name/)).toHaveValue('Deploy Notepad++');
  });

  it('keeps a name the user typed when packages change', async () => {
    open({ initialPackages: [{ id: 1, name: '7-Zip' }] });
    await within(group('Packages')).findByText('Chrome');
    const name = screen.getByLabelText(/Job Name/);
    await userEvent.clear(name);
    await userEvent.type(name, 'Patch Tuesday');
    await pick('Packages', 'Chrome');
    expect(name).toHaveValue('Patch Tuesday');
  });
});
