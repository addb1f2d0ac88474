import { Info, SearchX, X, BarChart3 } from 'lucide-react';
import type { ActivityOverviewPage } from '@outpost/contract/activity';
import { activityMessages, UTILIZATION_BANDS } from '@outpost/contract/activity';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { FilterSelect, SearchInput } from '../../../components/ui/list-toolbar';
import { Pager } from '../../../components/ui/pager';
import { EmptyState } from '../../../components/ui/states';
import { cn } from '../../../lib/cn';
import type { SessionsFilter, UtilizationFilter } from '../lib/overview';
import { BAND_STYLES, SESSIONS_FILTER_OPTIONS, UTILIZATION_FILTER_OPTIONS } from '../lib/overview';
import type { OverviewState } from '../lib/use-overview-state';
import { OverviewCards, OverviewCounters } from './overview-summary';
import { OverviewTable } from './overview-table';

// docs/product/activity.md#device-activity-overview Device activity, once the rows are loaded: filters, counters, cards,
// the sortable table with its empty states, and the 'Understanding Utilization' panel.

function UnderstandingPanel() {
  return (
    <Card className="p-5">
      <div className="flex gap-4">
        <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-400">
          <Info className="size-5" />
        </div>
        <div className="min-w-0 flex-1">
          <h2 className="text-sm font-semibold text-slate-900 dark:text-white">Understanding Utilization</h2>
          <p className="mt-1 text-sm text-slate-600 dark:text-slate-400">
            Utilization is the percent of a device&apos;s online time with users logged in. A device that is
            online all day with someone signed in for half of it is 50% utilized; time while the device is
            offline does not count.
          </p>
          <ul className="mt-3 flex flex-wrap gap-2">
            {UTILIZATION_BANDS.map((b) => (
              <li
                key={b.key}
                className={cn('rounded-full px-2.5 py-0.5 text-xs font-medium', BAND_STYLES[b.key].soft)}
              >
                {b.label}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </Card>
  );
}

export function DeviceActivityOverview({
  view,
  state,
  isUpdating = false,
}: {
  /** the server's answer for state.query (or the previous one while it loads) */
  view: ActivityOverviewPage;
  state: OverviewState;
  /** a new page, filter or sort is loading: the rows shown are the previous answer's */
  isUpdating?: boolean;
}) {
  const { list, sort, sortBy } = state;
  const { page, limit, total, totalPages } = view.pagination;

  // the empty state describes the answer on screen: the search it was asked with
  const isSearching = state.query.search !== '';
  const isFiltered = isSearching || state.query.utilization !== null || state.query.sessions !== null;

  const empty = (
    <EmptyState
      icon={isSearching ? <SearchX className="size-6" /> : <BarChart3 className="size-6" />}
      title={isSearching ? activityMessages.noMatchingDevices : activityMessages.noActivityData}
      message={isFiltered ? activityMessages.noMatchHint : activityMessages.noActivityHint}
      action={
        isFiltered ? (
          <Button onClick={list.clearFilters} icon={<X className="size-4" />}>
            Clear All Filters
          </Button>
        ) : undefined
      }
    />
  );

  return (
    <div className="space-y-6">
      <Card>
        <div className="flex flex-col gap-3 px-4 py-3 lg:flex-row lg:items-center">
          <SearchInput
            value={list.search}
            onChange={list.setSearch}
            placeholder={activityMessages.searchPlaceholder}
            label="Search devices or sites"
          />
          <div className="flex flex-1 flex-wrap items-center gap-2">
            <FilterSelect<UtilizationFilter>
              label="Utilization"
              value={list.filters.utilization}
              options={UTILIZATION_FILTER_OPTIONS}
              onChange={(utilization) => list.setFilter('utilization', utilization)}
              className="sm:w-48"
            />
            <FilterSelect<SessionsFilter>
              label="Sessions"
              value={list.filters.sessions}
              options={SESSIONS_FILTER_OPTIONS}
              onChange={(sessions) => list.setFilter('sessions', sessions)}
            />
            {list.hasActiveFilters && (
              <Button variant="ghost" size="sm" onClick={list.clearFilters} icon={<X className="size-3.5" />}>
                Clear Filters
              </Button>
            )}
          </div>
        </div>
      </Card>

      <OverviewCounters summary={view.summary} showing={total} />
      <OverviewCards summary={view.summary} />

      <Card>
        <CardHeader
          title="Device Utilization Overview"
          description="Share of each device's online time with a user logged in, over the last 7, 14 and 30 days"
        />
        <div aria-busy={isUpdating} className={cn('transition-opacity', isUpdating && 'opacity-60')}>
          <OverviewTable rows={view.data} sort={sort} onSort={sortBy} empty={empty} />
        </div>
        {totalPages > 1 && (
          <div className="flex flex-col gap-3 border-t border-slate-200 px-4 py-3 sm:flex-row sm:items-center sm:justify-between dark:border-slate-800">
            <span className="text-sm text-slate-500 tabular-nums dark:text-slate-400">
              {view.data.length > 0
                ? `${((page - 1) * limit + 1).toLocaleString()}–${((page - 1) * limit + view.data.length).toLocaleString()} of `
                : ''}
              {total.toLocaleString()} devices
            </span>
            <Pager page={page} totalPages={totalPages} onPageChange={list.setPage} label="Device pages" />
          </div>
        )}
      </Card>

      <UnderstandingPanel />
    </div>
  );
}
