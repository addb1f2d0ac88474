import { X } from 'lucide-react';
import { ALERT_CONDITION_LABELS, ALERT_CONDITIONS } from '@outpost/contract/alerts';
import { SEVERITIES, SEVERITY_LABELS } from '@outpost/contract/checks';
import { Button } from '../../../components/ui/button';
import { FilterSelect } from '../../../components/ui/list-toolbar';
import { Spinner } from '../../../components/ui/spinner';
import type { AlertFilters } from '../../../lib/alert-view';
import { useDeployGroups } from '../../../lib/api/deploy-groups';
import { useSiteOptions } from '../../../lib/api/devices';
import { StateSegments } from './state-segments';

// The Alerts page's toolbar (docs/product/monitoring.md#the-alerts-page): the state segments, then
// severity, condition, site and group, the device a link arrived with, and Clear.

export function AlertFilterBar({
  filters,
  onChange: change,
  onClear,
  hasActiveFilters,
  deviceName,
  isFetching,
}: {
  filters: AlertFilters;
  onChange: <K extends keyof AlertFilters>(key: K, value: AlertFilters[K]) => void;
  onClear: () => void;
  hasActiveFilters: boolean;
  deviceName: string;
  isFetching: boolean;
}) {
  const sites = useSiteOptions();
  const groups = useDeployGroups(true);
  return (
    <div className="flex flex-col gap-3 border-b border-slate-200 px-4 py-3 dark:border-slate-800">
      <StateSegments value={filters.state} onChange={(v) => change('state', v)} />
      <div className="flex flex-wrap items-center gap-2">
        <FilterSelect
          label="Severity"
          value={filters.severity}
          onChange={(v) => change('severity', v)}
          options={[
            { value: '' as const, label: 'All severities' },
            ...SEVERITIES.map((s) => ({ value: s, label: SEVERITY_LABELS[s] })),
          ]}
        />
        <FilterSelect
          label="Condition"
          value={filters.condition}
          onChange={(v) => change('condition', v)}
          className="sm:w-48"
          options={[
            { value: '' as const, label: 'All conditions' },
            ...ALERT_CONDITIONS.map((c) => ({ value: c, label: ALERT_CONDITION_LABELS[c] })),
          ]}
        />
        <FilterSelect
          label="Site"
          value={filters.site}
          onChange={(v) => change('site', v)}
          options={[
            { value: '', label: 'All sites' },
            ...(sites.data ?? []).map((s) => ({ value: String(s.id), label: s.site_name })),
          ]}
        />
        <FilterSelect
          label="Group"
          value={filters.group}
          onChange={(v) => change('group', v)}
          options={[
            { value: '', label: 'All groups' },
            ...(groups.data?.data ?? []).map((g) => ({ value: String(g.id), label: g.name })),
          ]}
        />
        {filters.device && (
          <span className="inline-flex h-9 items-center gap-1 rounded-md bg-indigo-50 pr-1 pl-3 text-sm text-indigo-800 ring-1 ring-indigo-200 ring-inset dark:bg-indigo-500/10 dark:text-indigo-200 dark:ring-indigo-500/30">
            Device: <strong className="font-medium">{deviceName}</strong>
            <button
              type="button"
              aria-label="Show every device"
              onClick={() => change('device', '')}
              className="rounded p-1 hover:bg-indigo-100 dark:hover:bg-indigo-500/20"
            >
              <X className="size-3.5" aria-hidden />
            </button>
          </span>
        )}
        {hasActiveFilters && (
          <Button variant="ghost" size="sm" onClick={onClear} icon={<X className="size-3.5" />}>
            Clear
          </Button>
        )}
        {isFetching && <Spinner className="size-4 text-slate-400" />}
      </div>
    </div>
  );
}
