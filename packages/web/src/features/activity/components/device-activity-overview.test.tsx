// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityOverviewPage, DeviceActivityRow, PagedOverviewQuery } from '@outpost/contract/activity';
import { activityMessages } from '@outpost/contract/activity';
import { useOverviewState } from '../lib/use-overview-state';
import { DeviceActivityOverview } from './device-activity-overview';

// docs/product/activity.md#device-activity-overview Device activity, with the server's answer loaded: what is shown, and
// what the page asks the server for next (the arguments of the paged call).

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

// as the server sends them: 30 days, descending
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
    utilization_7d: 130,
    utilization_14d: 12,
    utilization_30d: 9,
  }),
];

const view = (
  data: DeviceActivityRow[] = FLEET,
  patch: Partial<ActivityOverviewPage> = {},
): ActivityOverviewPage => ({
  data,
  pagination: { page: 1, limit: 50, total: data.length, totalPages: 1 },
  summary: {
    total_devices: 4,
    active_today: 2,
    inactive_today: 2,
    total_sessions_today: 4,
    high_utilization_30d: 1,
    distribution: [
      { band: 'high', count: 1 },
      { band: 'good', count: 1 },
      { band: 'moderate', count: 1 },
      { band: 'low', count: 1 },
    ],
    average_utilization: { utilization_7d: 82, utilization_14d: 52.75, utilization_30d: 52 },
  },
  ...patch,
});

afterEach(cleanup);

/** The overview with its real state; the arguments it would send are printed beside it. */
function Harness({ answer }: { answer: ActivityOverviewPage }) {
  const state = useOverviewState();
  return (
    <>
      <DeviceActivityOverview view={answer} state={state} />
      <output data-testid="query">{JSON.stringify(state.query)}</output>
    </>
  );
}

function renderOverview(answer = view()) {
  const user = userEvent.setup();
  render(
    <MemoryRouter>
      <Harness answer={answer} />
    </MemoryRouter>,
  );
  return user;
}

const sent = () => JSON.parse(screen.getByTestId('query').textContent) as PagedOverviewQuery;
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
  it('asks for the first page by 30-day utilisation, descending, and shows the rows in the order sent', () => {
    renderOverview();
    expect(sent()).toEqual({
      page: 1,
      limit: 50,
      search: '',
      utilization: null,
      sessions: null,
      sort: 'utilization_30d',
      order: 'desc',
    });
    expect(deviceOrder()).toEqual(['Reception', 'Lab-01', 'Device 3', 'Build-Server']);
    expect(columnHeader('30 Days')).toHaveAttribute('aria-sort', 'descending');
    expect(columnHeader('Device')).toHaveAttribute('aria-sort', 'none');
  });

  it('toggles the active column and sorts a new column descending', async () => {
    const user = renderOverview();
    await user.click(header('30 Days'));
    expect(columnHeader('30 Days')).toHaveAttribute('aria-sort', 'ascending');
    expect(sent()).toMatchObject({ sort: 'utilization_30d', order: 'asc' });

    await user.click(header('Device'));
    expect(columnHeader('Device')).toHaveAttribute('aria-sort', 'descending');
    expect(columnHeader('30 Days')).toHaveAttribute('aria-sort', 'none');
    expect(sent()).toMatchObject({ sort: 'device', order: 'desc' });

    await user.click(header('Device'));
    expect(sent()).toMatchObject({ sort: 'device', order: 'asc' });
    await user.click(header('Sessions Today'));
    expect(sent()).toMatchObject({ sort: 'sessions', order: 'desc' });
    await user.click(header('7 Days'));
    expect(sent()).toMatchObject({ sort: 'utilization_7d', order: 'desc' });
    await user.click(header('14 Days'));
    expect(sent()).toMatchObject({ sort: 'utilization_14d', order: 'desc' });
    await user.click(header('Site'));
    expect(sent()).toMatchObject({ sort: 'site', order: 'desc' });
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
  });

  it('pages with the pager: the range, the total and the next page asked for', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(i + 1));
    const user = renderOverview(
      view(rows, { pagination: { page: 1, limit: 50, total: 1234, totalPages: 25 } }),
    );
    expect(screen.getByText('1–50 of 1,234 devices')).toBeInTheDocument();
    await user.click(
      within(screen.getByRole('navigation', { name: 'Device pages' })).getByRole('button', { name: '2' }),
    );
    expect(sent().page).toBe(2);
    // a new sort starts at the top of the new order
    await user.click(header('Site'));
    expect(sent()).toMatchObject({ page: 1, sort: 'site' });
  });

  it('hides the pager with one page', () => {
    renderOverview();
    expect(screen.queryByRole('navigation', { name: 'Device pages' })).not.toBeInTheDocument();
  });
});

describe('filters and search', () => {
  it('sends the search once typing pauses, the filters at once, each from page 1; Clear Filters resets them', async () => {
    const rows = Array.from({ length: 50 }, (_, i) => row(i + 1));
    const user = renderOverview(
      view(rows, { pagination: { page: 1, limit: 50, total: 120, totalPages: 3 } }),
    );
    expect(screen.queryByRole('button', { name: 'Clear Filters' })).not.toBeInTheDocument();
    await user.click(
      within(screen.getByRole('navigation', { name: 'Device pages' })).getByRole('button', { name: '3' }),
    );
    expect(sent().page).toBe(3);

    await user.type(screen.getByPlaceholderText('Search devices or sites...'), ' BERLIN ');
    expect(screen.getByRole('button', { name: 'Clear Filters' })).toBeInTheDocument();
    expect(sent().page).toBe(1);
    await waitFor(() => expect(sent().search).toBe('BERLIN'));

    await user.selectOptions(screen.getByRole('combobox', { name: 'Sessions' }), 'Inactive Today');
    expect(sent()).toMatchObject({ search: 'BERLIN', sessions: 'inactive', utilization: null, page: 1 });
    await user.selectOptions(screen.getByRole('combobox', { name: 'Utilization' }), 'High (80%+)');
    expect(sent()).toMatchObject({ sessions: 'inactive', utilization: 'high' });

    await user.click(screen.getByRole('button', { name: 'Clear Filters' }));
    expect(screen.getByPlaceholderText('Search devices or sites...')).toHaveValue('');
    await waitFor(() =>
      expect(sent()).toMatchObject({ search: '', utilization: null, sessions: null, page: 1 }),
    );
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
  const none = view([], {
    summary: {
      ...view().summary,
      total_devices: 0,
      active_today: 0,
      inactive_today: 0,
      average_utilization: { utilization_7d: 0, utilization_14d: 0, utilization_30d: 0 },
    },
  });

  it('without any data: No device activity data and the reporting hint', () => {
    renderOverview(none);
    expect(screen.getByText(activityMessages.noActivityData)).toBeInTheDocument();
    expect(screen.getByText(activityMessages.noActivityHint)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear All Filters' })).not.toBeInTheDocument();
  });

  it('without devices, the utilisation trends read "–" (no data), not a red 0.0%', () => {
    renderOverview(none);
    for (const label of ['7 Days', '14 Days', '30 Days']) {
      const trend = screen.getByTestId(`trend-${label}`);
      expect(trend).toHaveTextContent('–');
      expect(trend).not.toHaveTextContent('0.0%');
      expect(trend).not.toHaveAttribute('data-band');
    }
  });

  it('when searching: No matching devices, the filters hint and Clear All Filters', async () => {
    const user = renderOverview(none);
    await user.type(screen.getByPlaceholderText('Search devices or sites...'), 'nothing like this');
    expect(await screen.findByText(activityMessages.noMatchingDevices)).toBeInTheDocument();
    expect(screen.getByText(activityMessages.noMatchHint)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Clear All Filters' }));
    expect(screen.getByPlaceholderText('Search devices or sites...')).toHaveValue('');
  });

  it('with a filter but no search: No device activity data with the filters hint', async () => {
    const user = renderOverview(none);
    await user.selectOptions(screen.getByRole('combobox', { name: 'Utilization' }), 'High (80%+)');
    expect(screen.getByText(activityMessages.noActivityData)).toBeInTheDocument();
    expect(screen.getByText(activityMessages.noMatchHint)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Clear All Filters' })).toBeInTheDocument();
  });
});

describe('counters and cards', () => {
  it("show the server's whole-scope figures; Showing is the filtered count", () => {
    renderOverview(view(FLEET.slice(0, 2), { pagination: { page: 1, limit: 50, total: 2, totalPages: 1 } }));
    expect(counter('Total Devices')).toBe('4');
    expect(counter('Showing')).toBe('2');
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
    expect(screen.getByTestId('trend-7 Days')).toHaveTextContent('82.0%');
    expect(screen.getByTestId('trend-7 Days')).toHaveAttribute('data-band', 'high');
    expect(screen.getByTestId('trend-14 Days')).toHaveTextContent('52.8%');
    expect(screen.getByTestId('trend-14 Days')).toHaveAttribute('data-band', 'moderate');
    expect(screen.getByTestId('trend-30 Days')).toHaveTextContent('52.0%');
    expect(screen.getByText('Understanding Utilization')).toBeInTheDocument();
  });
});
