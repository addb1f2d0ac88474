// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { DeviceActivityRow } from '@outpost/contract/activity';
import { activityMessages } from '@outpost/contract/activity';
import { DeviceActivityOverview } from './device-activity-overview';

// spec: operations §2.11 Device activity, with the rows already loaded.

const row = (agent_id: number, patch: Partial<DeviceActivityRow> = {}): DeviceActivityRow => ({
  agent_id,
  device_guid: `guid-${agent_id}`,
  device_name: `PC-${agent_id}`,
  site_name: 'Berlin',
  login_sessions_today: 0,
  utilization_7d: 0,
  utilization_14d: 0,
  utilization_30d: 0,
  ...patch,
});

const FLEET = [
  row(1, {
    device_name: 'Reception',
    site_name: 'Berlin HQ',
    login_sessions_today: 3,
    utilization_7d: 91,
    utilization_14d: 88,
    utilization_30d: 85,
  }),
  row(2, {
    device_name: 'Lab-01',
    site_name: 'Munich',
    login_sessions_today: 0,
    utilization_7d: 62,
    utilization_14d: 64,
    utilization_30d: 66,
  }),
  row(3, {
    device_name: null,
    site_name: null,
    login_sessions_today: 1,
    utilization_7d: 45,
    utilization_14d: 47,
    utilization_30d: 48,
  }),
  row(4, {
    device_name: 'Build-Server',
    site_name: 'Berlin Lab',
    login_sessions_today: 0,
    utilization_7d: 130,
    utilization_14d: 12,
    utilization_30d: 9,
  }),
];

afterEach(cleanup);

function renderOverview(rows: DeviceActivityRow[] = FLEET) {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <DeviceActivityOverview rows={rows} />
    </MemoryRouter>,
  );
  return user;
}

const table = () => screen.getByRole('table', { name: 'Device Utilization Overview' });
const deviceOrder = () =>
  within(table())
    .getAllByRole('row')
    .slice(1)
    .map((r) => within(r).getAllByRole('cell')[0]!.textContent);
const header = (name: string) => within(table()).getByRole('button', { name });
const columnHeader = (name: string) =>
  within(table())
    .getAllByRole('columnheader')
    .find((h) => h.textContent === name)!;
const counter = (label: string) => screen.getByTestId(`counter-${label}`).textContent;

describe('the device utilization table', () => {
  it('sorts by 30-day utilisation, descending, by default', () => {
    renderOverview();
    expect(deviceOrder()).toEqual(['Reception', 'Lab-01', 'Device 3', 'Build-Server']);
    expect(columnHeader('30 Days')).toHaveAttribute('aria-sort', 'descending');
    expect(columnHeader('Device')).toHaveAttribute('aria-sort', 'none');
  });

  it('toggles the active column and sorts a new column descending', async () => {
    const user = renderOverview();
    await user.click(header('30 Days'));
    expect(columnHeader('30 Days')).toHaveAttribute('aria-sort', 'ascending');
    expect(deviceOrder()).toEqual(['Build-Server', 'Device 3', 'Lab-01', 'Reception']);

    await user.click(header('Device'));
    expect(columnHeader('Device')).toHaveAttribute('aria-sort', 'descending');
    expect(columnHeader('30 Days')).toHaveAttribute('aria-sort', 'none');
    expect(deviceOrder()).toEqual(['Reception', 'Lab-01', 'Device 3', 'Build-Server']);

    await user.click(header('Device'));
    expect(columnHeader('Device')).toHaveAttribute('aria-sort', 'ascending');
    expect(deviceOrder()).toEqual(['Build-Server', 'Device 3', 'Lab-01', 'Reception']);

    await user.click(header('Sessions Today'));
    expect(deviceOrder()).toEqual(['Reception', 'Device 3', 'Build-Server', 'Lab-01']);

    await user.click(header('7 Days'));
    expect(deviceOrder()).toEqual(['Build-Server', 'Reception', 'Lab-01', 'Device 3']);

    await user.click(header('Site'));
    // No site, Munich, Berlin Lab, Berlin HQ
    expect(deviceOrder()).toEqual(['Device 3', 'Lab-01', 'Build-Server', 'Reception']);
  });

  it('links devices to their page with the fallbacks for name and site', () => {
    renderOverview();
    expect(screen.getByRole('link', { name: 'Reception' })).toHaveAttribute('href', '/devices/guid-1');
    expect(screen.getByRole('link', { name: 'Device 3' })).toHaveAttribute('href', '/devices/guid-3');
    const unnamed = screen.getByRole('link', { name: 'Device 3' }).closest('tr')!;
    expect(within(unnamed).getByText('No site')).toBeInTheDocument();
  });

  it('colours each cell by band and caps bars at 100 %', () => {
    renderOverview();
    const server = screen.getByRole('link', { name: 'Build-Server' }).closest('tr')!;
    const cells = server.querySelectorAll('[data-band]');
    expect([...cells].map((c) => c.getAttribute('data-band'))).toEqual(['high', 'low', 'low']);
    expect(within(server).getByText('130.0%')).toBeInTheDocument();
    const bars = within(server).getAllByTestId('utilization-bar');
    expect(bars.map((b) => b.style.width)).toEqual(['100%', '12%', '9%']);
    const lab = screen.getByRole('link', { name: 'Lab-01' }).closest('tr')!;
    expect([...lab.querySelectorAll('[data-band]')].map((c) => c.getAttribute('data-band'))).toEqual([
      'good',
      'good',
      'good',
    ]);
  });
});

describe('filters and search', () => {
  it('combine, update Showing, and Clear Filters appears only when one is set', async () => {
    const user = renderOverview();
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument();
    expect(counter('Total Devices')).toBe('4');
    expect(counter('Showing')).toBe('4');

    await user.type(screen.getByPlaceholderText('Search devices or sites...'), 'BERLIN');
    expect(deviceOrder()).toEqual(['Reception', 'Build-Server']);
    expect(counter('Showing')).toBe('2');
    expect(screen.getByRole('button', { name: 'Clear Filters' })).toBeInTheDocument();

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sessions' }), 'Inactive Today');
    expect(deviceOrder()).toEqual(['Build-Server']);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Utilization' }), 'High (80%+)');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(counter('Showing')).toBe('0');
    // the counters and cards describe the whole fleet
    expect(counter('Total Devices')).toBe('4');

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(deviceOrder()).toHaveLength(4);
    expect(screen.getByPlaceholderText('Search devices or sites...')).toHaveValue('');
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument();
  });

  it('offers the spec options', () => {
    renderOverview();
    const opts = (name: string) =>
      within(screen.getByRole('combobox', { name }))
        .getAllByRole('option')
        .map((o) => o.textContent);
    expect(opts('Utilization')).toEqual([
      'All Utilization',
      'High (80%+)',
      'Good (60-79%)',
      'Moderate (40-59%)',
      'Low (<40%)',
    ]);
    expect(opts('Sessions')).toEqual(['All Sessions', 'Active Today', 'Inactive Today']);
  });
});

describe('empty states', () => {
  it('without any data: No device activity data and the reporting hint', () => {
    renderOverview([]);
    expect(screen.getByText(activityMessages.noActivityData)).toBeInTheDocument();
    expect(screen.getByText(activityMessages.noActivityHint)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear All Filters' })).not.toBeInTheDocument();
  });

  it('when searching: No matching devices, the filters hint and Clear All Filters', async () => {
    const user = renderOverview();
    await user.type(screen.getByPlaceholderText('Search devices or sites...'), 'nothing like this');
    expect(screen.getByText(activityMessages.noMatchingDevices)).toBeInTheDocument();
    expect(screen.getByText(activityMessages.noMatchHint)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear All Filters' }));
    expect(deviceOrder()).toHaveLength(4);
  });

  it('with a filter but no search: No device activity data with the filters hint', async () => {
    const user = renderOverview([row(1, { utilization_30d: 10 })]);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Utilization' }), 'High (80%+)');
    expect(screen.getByText(activityMessages.noActivityData)).toBeInTheDocument();
    expect(screen.getByText(activityMessages.noMatchHint)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear All Filters' })).toBeInTheDocument();
  });
});

describe('counters and cards', () => {
  it('show today, the distribution and the averages coloured by band', () => {
    renderOverview();
    expect(counter('Active Today')).toBe('2');
    expect(counter('High Utilization (30d)')).toBe('1');
    const today = screen.getByText("Today's Activity").closest('.rounded-xl') as HTMLElement;
    expect(within(today).getByText('Total Sessions').nextSibling).toHaveTextContent('4');
    expect(within(today).getByText('Active Devices').nextSibling).toHaveTextContent('2');
    expect(within(today).getByText('Inactive Devices').nextSibling).toHaveTextContent('2');
    const dist = screen.getByRole('list', { name: 'Utilization distribution' });
    expect(
      within(dist)
        .getAllByRole('progressbar')
        .map((p) => p.getAttribute('aria-valuenow')),
    ).toEqual(['25', '25', '25', '25']);
    // 7d: (91+62+45+130)/4 = 82.0 high; 14d: (88+64+47+12)/4 = 52.75 moderate; 30d: 52.0 moderate
    expect(screen.getByTestId('trend-7 Days')).toHaveTextContent('82.0%');
    expect(screen.getByTestId('trend-7 Days')).toHaveAttribute('data-band', 'high');
    expect(screen.getByTestId('trend-14 Days')).toHaveTextContent('52.8%');
    expect(screen.getByTestId('trend-14 Days')).toHaveAttribute('data-band', 'moderate');
    expect(screen.getByTestId('trend-30 Days')).toHaveTextContent('52.0%');
    expect(screen.getByText('Understanding Utilization')).toBeInTheDocument();
  });
});
