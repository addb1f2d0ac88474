import { Link } from 'react-router';
import { Play } from 'lucide-react';
import { SCRIPT_LANGUAGE_LABELS } from '@outpost/contract/scripts';
import type { ScriptOs, ScriptSummary } from '@outpost/contract/scripts';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDate, relativeTime } from '../../../lib/format';

export const OS_LABELS: Record<ScriptOs, string> = {
  windows: 'Windows',
  macos: 'macOS',
  linux: 'Linux',
  any: 'Any OS',
};

/** The library's columns (docs/product/scripts.md#the-library). */
export function scriptColumns({ onRun }: { onRun: (s: ScriptSummary) => void }): Column<ScriptSummary>[] {
  return [
    {
      id: 'script',
      header: 'Script',
      sticky: true,
      className: 'max-w-md',
      cell: (s) => (
        <>
          <Link
            to={`/scripts/${s.id}`}
            className="font-medium text-slate-900 hover:text-indigo-600 dark:text-white dark:hover:text-indigo-400"
          >
            {s.name}
          </Link>
          {s.description && (
            <p className="mt-0.5 line-clamp-2 text-xs text-slate-500 dark:text-slate-400">{s.description}</p>
          )}
        </>
      ),
    },
    {
      id: 'category',
      header: 'Category',
      cell: (s) =>
        s.category ? <Badge tone="gray">{s.category}</Badge> : <span className="text-slate-400">—</span>,
    },
    {
      id: 'language',
      header: <>Language &amp; OS</>,
      cell: (s) => (
        <div className="flex flex-col items-start gap-1">
          <span className="text-sm">{SCRIPT_LANGUAGE_LABELS[s.language]}</span>
          <span className="text-xs text-slate-500 dark:text-slate-400">{OS_LABELS[s.os]}</span>
        </div>
      ),
    },
    {
      id: 'version',
      header: <>Version &amp; Parameters</>,
      cell: (s) => (
        <>
          <div className="text-sm">v{s.version}</div>
          <div className="text-xs text-slate-500 dark:text-slate-400">
            {s.params_count} parameter{s.params_count === 1 ? '' : 's'}
          </div>
        </>
      ),
    },
    {
      id: 'updated',
      header: 'Updated',
      cell: (s) => (
        <>
          <div className="text-sm whitespace-nowrap">{formatDate(s.updated_at)}</div>
          <div className="text-xs text-slate-500 dark:text-slate-400">
            by {s.updated_by_name ?? 'Unknown'}
          </div>
        </>
      ),
    },
    {
      id: 'last-run',
      header: 'Last run',
      cell: (s) => (
        <span className="text-sm whitespace-nowrap">
          {s.last_run_at ? relativeTime(s.last_run_at) : 'Never'}
        </span>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      cell: (s) => (
        <Button
          size="sm"
          icon={<Play className="size-4" />}
          onClick={() => onRun(s)}
          aria-label={`Run ${s.name}`}
        >
          Run
        </Button>
      ),
    },
  ];
}
