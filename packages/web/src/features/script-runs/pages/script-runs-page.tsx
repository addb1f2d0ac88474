import { useEffect } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { History } from 'lucide-react';
import { SCRIPT_LANGUAGE_LABELS } from '@outpost/contract/scripts';
import type { ScriptRunSummary } from '@outpost/contract/script-runs';
import { StatusBadge } from '../../../components/ui/badge';
import { Card, PageHeader } from '../../../components/ui/card';
import { DataList } from '../../../components/ui/data-list';
import type { Column } from '../../../components/ui/data-table';
import { formatDateTime, relativeTime } from '../../../lib/format';
import { useListState } from '../../../lib/use-list-state';
import { useScriptRuns } from '../api/script-runs';
import { ScriptsTabs } from '../components/scripts-tabs';
import { RunCounters } from '../components/run-counters';

// docs/product/scripts.md#history — every run of a script: what ran, who started it and when, and
// how its devices fared; newest first, paged, filtered to one script by ?script=.

const columns = (open: (id: number) => void): Column<ScriptRunSummary>[] => [
  {
    id: 'script',
    header: 'Script',
    sticky: true,
    cell: (r) => (
      <Link
        to={`/scripts/runs/${r.id}`}
        onClick={(e) => {
          e.preventDefault();
          open(r.id);
        }}
        className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
      >
        {r.script_name}
      </Link>
    ),
  },
  { id: 'version', header: 'Version', label: 'Version', cell: (r) => `v${r.version}` },
  { id: 'language', header: 'Language', label: 'Language', cell: (r) => SCRIPT_LANGUAGE_LABELS[r.language] },
  { id: 'status', header: 'Status', label: 'Status', cell: (r) => <StatusBadge status={r.status} /> },
  {
    id: 'devices',
    header: 'Devices',
    label: 'Devices',
    cell: (r) => <RunCounters counts={r.devices} compact />,
  },
  { id: 'by', header: 'Started by', label: 'Started by', cell: (r) => r.created_by_name ?? '—' },
  {
    id: 'when',
    header: 'Started',
    label: 'Started',
    cell: (r) => relativeTime(r.created_at),
    title: (r) => formatDateTime(r.created_at),
  },
];

export default function ScriptRunsPage() {
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const scriptId = Number(search.get('script'));
  const list = useListState<Record<string, string>>({ filters: {} });
  const query = useScriptRuns({
    page: list.page,
    limit: list.pageSize,
    ...(Number.isInteger(scriptId) && scriptId > 0 && { script_id: scriptId }),
  });

  useEffect(() => {
    document.title = 'Script runs · Outpost';
  }, []);

  return (
    <>
      <PageHeader title="Scripts" description="Run scripts on your devices and read what they printed." />
      <ScriptsTabs />
      <Card>
        <DataList
          query={query}
          paging={list}
          footer="list"
          errorFallback="Failed to load script runs"
          errorTitle="Failed to load script runs"
          loadingLabel="Loading script runs"
          empty={{
            icon: <History className="size-6" />,
            title: 'No script runs yet',
            message: 'Run a script from the library and follow its results here.',
          }}
          cards
          columns={columns((id) => void navigate(`/scripts/runs/${id}`))}
          rowAttributes={(r) => ({ 'data-testid': 'script-run-row', 'data-run-id': r.id })}
        />
      </Card>
    </>
  );
}
