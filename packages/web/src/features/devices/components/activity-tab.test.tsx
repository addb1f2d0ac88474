// @vitest-environment jsdom
import '@testing-library/jest-dom/vitest';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityLogEntry, ChartSlot, WeeklySummaryRow } from '@outpost/contract/activity';
import { activityMessages } from '@outpost/contract/activity';
import type { Device } from '@outpost/contract/devices';
import {
  formatMinutes,
  minutesElapsed,
  sessionPosition,
  shortSessionId,
  slotState,
} from '../lib/activity-slots';
import { ActivityChart } from './activity-chart';
import { ActivityLog } from './activity-log';
import { ActivityTab } from './activity-tab';
import { WeeklyTable } from './weekly-table';

// docs/product/activity.md#device-activity-tab, #fields, #limits (12 slots, session id shown as 8 characters).

vi.mock('../../../lib/auth', () => ({ useUser: () => ({ tenant_id: 1 }) }));

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const HOUR = 3_600_000;
const NOW = Date.parse('2026-11-23T14:25:00Z');
const slotAt = (hoursFromNowHour: number, patch: Partial<ChartSlot> = {}): ChartSlot => ({
  hour_slot: new Date(Date.parse('2026-11-23T14:00:00Z') + hoursFromNowHour * HOUR).toISOString(),
  online_percentage: 100,
  login_minutes: 0,
  sessions: [],
  is_current: hoursFromNowHour === 0,
  ...patch,
});

describe('slot states', () => {
  it('marks past, current and future slots', () => {
    expect(slotState(slotAt(-1), NOW)).toBe('past');
    expect(slotState(slotAt(0), NOW)).toBe('current');
    expect(slotState(slotAt(1), NOW)).toBe('future');
    // a slot holding now is current even if the server did not say so
    expect(slotState(slotAt(0, { is_current: false }), NOW)).toBe('current');
    // the server's clock decides which slot is current
    expect(slotState(slotAt(1, { is_current: true }), NOW)).toBe('current');
    // a timestamp without a zone is UTC
    expect(slotState({ hour_slot: '2026-11-23T15:00:00', is_current: false }, NOW)).toBe('future');
  });

  it('knows how much of the current hour has passed', () => {
    expect(minutesElapsed(slotAt(0), NOW)).toBe(25);
    expect(minutesElapsed(slotAt(-3), NOW)).toBe(60);
    expect(minutesElapsed(slotAt(2), NOW)).toBe(0);
  });

  it('places sessions inside the hour, clamped', () => {
    expect(sessionPosition({ start_offset: 15, duration: 30 })).toEqual({ left: 25, width: 50 });
    expect(sessionPosition({ start_offset: 45, duration: 40 })).toEqual({ left: 75, width: 25 });
    expect(sessionPosition({ start_offset: -5, duration: 10 })).toEqual({ left: 0, width: (5 / 60) * 100 });
  });

  it('formats minutes', () => {
    expect(formatMinutes(0)).toBe('0 min');
    expect(formatMinutes(44.6)).toBe('45 min');
    expect(formatMinutes(60)).toBe('1 h');
    expect(formatMinutes(125)).toBe('2 h 5 min');
  });
});

describe('the 12-hour chart', () => {
  it('has one row per slot and marks future slots', () => {
    const slots = [...Array.from({ length: 10 }, (_, i) => slotAt(i - 9)), slotAt(1), slotAt(2)];
    render(<ActivityChart slots={slots} now={NOW} />);
    const rows = within(screen.getByRole('list', { name: 'Hourly activity, last 12 hours' })).getAllByRole(
      'listitem',
    );
    expect(rows).toHaveLength(12);
    expect(rows.map((r) => r.getAttribute('data-slot-state'))).toEqual([
      ...Array<string>(9).fill('past'),
      'current',
      'future',
      'future',
    ]);
    expect(within(rows[9]!).getByText('Now')).toBeInTheDocument();
    expect(within(rows[10]!).getByText('Future')).toBeInTheDocument();
    expect(within(rows[10]!).getByText('Not yet')).toBeInTheDocument();
    expect(within(rows[8]!).queryByText('Future')).not.toBeInTheDocument();
    // a passed hour with the device online (100 % in these fixtures) shows its figures
    expect(within(rows[8]!).getByText('100% online')).toBeInTheDocument();
  });

  it('says Offline for a passed hour the device spent offline', () => {
    render(<ActivityChart slots={[slotAt(-2, { online_percentage: 0 }), slotAt(-1)]} now={NOW} />);
    const rows = screen.getAllByRole('listitem');
    expect(within(rows[0]!).getByText('Offline')).toBeInTheDocument();
    expect(within(rows[1]!).queryByText('Offline')).not.toBeInTheDocument();
  });

  it('draws sessions with their user and the figures of the slot', () => {
    const slot = slotAt(-1, {
      online_percentage: 75,
      login_minutes: 40,
      sessions: [
        { user: 'alice', start_offset: 0, duration: 30 },
        { user: 'bob', start_offset: 50, duration: 10 },
      ],
    });
    render(<ActivityChart slots={[slot]} now={NOW} />);
    const [alice, bob] = screen.getAllByTestId('chart-session');
    expect(alice).toHaveTextContent('alice');
    expect(alice!.style.left).toBe('0%');
    expect(alice!.getAttribute('title')).toBe('alice: 30 min from :00');
    // too narrow for its name, which stays in the tooltip
    expect(bob).toHaveTextContent('');
    expect(bob!.getAttribute('title')).toBe('bob: 10 min from :50');
    expect(screen.getByText('75% online')).toBeInTheDocument();
    expect(screen.getByText('40 min')).toBeInTheDocument();
  });
});

describe('the 7-day summary', () => {
  it('lists the days with sessions and hours, today last', () => {
    const rows: WeeklySummaryRow[] = [
      { day_name: 'Monday', activity_date: '2026-11-16', total_sessions: 3, total_login_hours: 6.25 },
      { day_name: 'Monday', activity_date: '2026-11-23', total_sessions: 1, total_login_hours: 0.5 },
    ];
    render(<WeeklyTable rows={rows} />);
    const table = screen.getByRole('table', { name: '7-day login summary' });
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['Day', 'Sessions', 'Hours Logged In']);
    const [, first, today] = within(table).getAllByRole('row');
    expect(first).toHaveTextContent('2026-11-16');
    expect(first).toHaveTextContent('6.3');
    expect(within(today!).getByText('Today')).toBeInTheDocument();
    expect(within(first!).queryByText('Today')).not.toBeInTheDocument();
  });
});

describe('the activity log', () => {
  it('shows the session id as its first 8 characters', () => {
    expect(shortSessionId('0123456789abcdef')).toBe('01234567');
    expect(shortSessionId('abc')).toBe('abc');
    expect(shortSessionId(null)).toBe('—');
    const entries: ActivityLogEntry[] = [
      {
        id: 3,
        event_type: 'memory_limit',
        event_timestamp: '2026-11-23T09:30:00Z',
        user_name: null,
        ip_address: null,
        session_id: null,
        detail:
          'The agent used 231 MB of memory, above its limit of 200 MB, for 60 s; it restarts (exit code 77).',
      },
      {
        id: 2,
        event_type: 'login',
        event_timestamp: '2026-11-23T09:00:00Z',
        user_name: 'alice',
        ip_address: '10.0.0.5',
        session_id: 'f3a9c2d1-77b0-4c1e-9d2a-1b2c3d4e5f60',
        detail: null,
      },
      {
        id: 1,
        event_type: 'online',
        event_timestamp: '2026-11-23T08:58:00Z',
        user_name: null,
        ip_address: null,
        session_id: null,
        detail: null,
      },
    ];
    render(<ActivityLog entries={entries} />);
    const log = screen.getByRole('region', { name: 'Recent activity log' });
    const [, memory, login, online] = within(log).getAllByRole('row');
    // a notice shows what the agent said across the session columns
    expect(memory).toHaveTextContent('Memory limit');
    expect(memory).toHaveTextContent('above its limit of 200 MB');
    expect(within(login!).getByText('f3a9c2d1')).toHaveAttribute(
      'title',
      'f3a9c2d1-77b0-4c1e-9d2a-1b2c3d4e5f60',
    );
    expect(login).not.toHaveTextContent('f3a9c2d1-');
    expect(login).toHaveTextContent('Login');
    expect(login).toHaveTextContent('alice');
    expect(login).toHaveTextContent('10.0.0.5');
    expect(online).toHaveTextContent('Online');
  });
});

describe('the tab', () => {
  it("loads the three parts by the device's guid; a failed part says 'Failed to load device activity'", async () => {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        urls.push(url);
        const reply = (status: number, body: unknown) =>
          Promise.resolve(new Response(JSON.stringify(body), { status }));
        if (url.includes('/chart')) {
          return reply(503, { success: false, error: 'Activity store unavailable' });
        }
        if (url.includes('/weekly-summary')) {
          return reply(500, { success: false });
        }
        return reply(200, { success: true, data: [] });
      }),
    );
    const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
    render(
      <QueryClientProvider client={client}>
        <ActivityTab device={{ device_guid: 'abc-123' } as Device} />
      </QueryClientProvider>,
    );
    const alerts = await screen.findAllByRole('alert');
    expect(alerts).toHaveLength(2);
    expect(alerts[0]).toHaveTextContent(activityMessages.deviceActivityLoad);
    expect(alerts[0]).toHaveTextContent('Activity store unavailable');
    expect(alerts[1]).toHaveTextContent(activityMessages.deviceActivityLoad);
    expect(alerts[1]).not.toHaveTextContent('HTTP error');
    expect(await screen.findByText('No activity recorded')).toBeInTheDocument();
    expect(urls.sort()).toEqual([
      '/api/customer/device-activity/device/abc-123/chart',
      '/api/customer/device-activity/device/abc-123/weekly-summary',
      '/api/customer/device-activity/device/abc-123?days=7',
    ]);
  });
});
