import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ArrowDown, ArrowUp, ChevronsUpDown, Monitor } from 'lucide-react';
import type { DeviceActivityRow } from '@outpost/contract/activity';
import { deviceLabel, siteLabel, utilizationBand } from '@outpost/contract/activity';
import { TBody, THead, Table, Td, Th, Tr } from '../../../components/ui/table';
import { cn } from '../../../lib/cn';
import type { Sort, SortKey } from '../lib/overview';
import { BAND_STYLES, barWidth, formatUtilization } from '../lib/overview';

// docs/product/activity.md#device-activity-overview table 'Device Utilization Overview'.

const COLUMNS: { key: SortKey; label: string; numeric?: boolean }[] = [
  { key: 'device', label: 'Device' },
  { key: 'site', label: 'Site' },
  { key: 'sessions', label: 'Sessions Today', numeric: true },
  { key: 'utilization_7d', label: '7 Days' },
  { key: 'utilization_14d', label: '14 Days' },
  { key: 'utilization_30d', label: '30 Days' },
];

/** A utilisation cell: a bar capped at 100 % in the band's colour, and the percentage. */
export function UtilizationCell({ value }: { value: number }) {
  const band = utilizationBand(value);
  return (
    <div className="flex min-w-28 items-center gap-3" data-band={band}>
      <div className="h-2 flex-1 overflow-hidden rounded-full bg-slate-100 dark:bg-slate-800" aria-hidden>
        <div
          className={cn('h-full rounded-full', BAND_STYLES[band].bar)}
          style={{ width: `${barWidth(value)}%` }}
          data-testid="utilization-bar"
        />
      </div>
      <span className={cn('w-14 text-right text-sm font-medium tabular-nums', BAND_STYLES[band].text)}>
        {formatUtilization(value)}
      </span>
    </div>
  );
}

function SortHeader({
  column,
  sort,
  onSort,
}: {
  column: (typeof COLUMNS)[number];
  sort: Sort;
  onSort: (key: SortKey) => void;
}) {
  const isActive = sort.key === column.key;
  const Icon = !isActive ? ChevronsUpDown : sort.direction === 'asc' ? ArrowUp : ArrowDown;
  return (
    <Th
      sticky={column.key === 'device'}
      aria-sort={isActive ? (sort.direction === 'asc' ? 'ascending' : 'descending') : 'none'}
    >
      <button
        type="button"
        onClick={() => onSort(column.key)}
        className={cn(
          '-mx-1 inline-flex items-center gap-1 rounded px-1 py-0.5 tracking-wide whitespace-nowrap uppercase',
          'hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:text-white',
          isActive && 'text-slate-900 dark:text-white',
        )}
      >
        {column.label}
        <Icon
          className={cn('size-3.5', isActive ? 'text-indigo-600 dark:text-indigo-400' : 'text-slate-400')}
          aria-hidden
        />
      </button>
    </Th>
  );
}

export function OverviewTable({
  rows,
  sort,
  onSort,
  empty,
}: {
  rows: DeviceActivityRow[];
  sort: Sort;
  onSort: (key: SortKey) => void;
  /** shown in place of the body when there are no rows */
  empty: ReactNode;
}) {
  if (rows.length === 0) {
    return <>{empty}</>;
  }
  return (
    <Table aria-label="Device Utilization Overview">
      <THead>
        <tr>
          {COLUMNS.map((c) => (
            <SortHeader key={c.key} column={c} sort={sort} onSort={onSort} />
          ))}
        </tr>
      </THead>
      <TBody>
        {rows.map((row) => (
          <Tr key={row.agent_id} data-agent-id={row.agent_id}>
            <Td sticky>
              <Link
                to={`/devices/${row.device_guid}`}
                className="group/link flex items-center gap-3 font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
              >
                <span className="flex size-8 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-500 group-hover/link:bg-indigo-50 group-hover/link:text-indigo-600 dark:bg-slate-800 dark:text-slate-400 dark:group-hover/link:bg-indigo-500/10 dark:group-hover/link:text-indigo-400">
                  <Monitor className="size-4" aria-hidden />
                </span>
                <span className="truncate">{deviceLabel(row)}</span>
              </Link>
            </Td>
            <Td
              className={cn(
                'whitespace-nowrap',
                !row.site_name && 'text-slate-500 italic dark:text-slate-400',
              )}
            >
              {siteLabel(row)}
            </Td>
            <Td className="tabular-nums">
              <span
                className={cn(
                  'inline-flex min-w-8 justify-center rounded-full px-2 py-0.5 text-xs font-semibold',
                  row.login_sessions_today > 0
                    ? 'bg-indigo-50 text-indigo-700 dark:bg-indigo-500/10 dark:text-indigo-300'
                    : 'bg-slate-100 text-slate-500 dark:bg-slate-800 dark:text-slate-400',
                )}
              >
                {row.login_sessions_today}
              </span>
            </Td>
            <Td>
              <UtilizationCell value={row.utilization_7d} />
            </Td>
            <Td>
              <UtilizationCell value={row.utilization_14d} />
            </Td>
            <Td>
              <UtilizationCell value={row.utilization_30d} />
            </Td>
          </Tr>
        ))}
      </TBody>
    </Table>
  );
}
