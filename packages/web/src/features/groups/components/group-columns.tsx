import { Link } from 'react-router';
import { Boxes, Pencil, Rocket, Trash2 } from 'lucide-react';
import { Badge } from '../../../components/ui/badge';
import { IconButton } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { relativeDay } from '../../../lib/format';
import type { GroupSummary } from '../api/groups';

export function KindBadge({ kind }: { kind: GroupSummary['kind'] }) {
  return (
    <Badge tone={kind === 'dynamic' ? 'indigo' : 'gray'}>{kind === 'dynamic' ? 'Dynamic' : 'Static'}</Badge>
  );
}

/** The groups list's columns (docs/product/device-sets.md#groups). */
export function groupColumns({
  onEdit,
  onDelete,
  onDeploy,
}: {
  onEdit: (g: GroupSummary) => void;
  onDelete: (g: GroupSummary) => void;
  onDeploy: (g: GroupSummary) => void;
}): Column<GroupSummary>[] {
  return [
    {
      id: 'name',
      header: 'Group',
      sticky: true,
      cell: (g) => (
        <div className="flex items-start gap-2.5">
          <span className="mt-0.5 inline-flex size-7 shrink-0 items-center justify-center rounded-md bg-indigo-50 text-indigo-600 dark:bg-indigo-500/10 dark:text-indigo-300">
            <Boxes className="size-4" aria-hidden />
          </span>
          <div className="min-w-0">
            <Link
              to={`/groups/${g.id}`}
              className="font-medium whitespace-nowrap text-slate-900 hover:text-indigo-600 hover:underline dark:text-white dark:hover:text-indigo-300"
            >
              {g.name}
            </Link>
            {g.description && (
              <div
                title={g.description}
                className="mt-0.5 max-w-80 truncate text-xs text-slate-500 dark:text-slate-400"
              >
                {g.description}
              </div>
            )}
          </div>
        </div>
      ),
    },
    { id: 'kind', header: 'Kind', label: 'Kind', cell: (g) => <KindBadge kind={g.kind} /> },
    {
      id: 'owner',
      header: 'Owner',
      label: 'Owner',
      className: 'whitespace-nowrap',
      cell: (g) => g.site_name ?? <span className="text-slate-500 dark:text-slate-400">All sites</span>,
    },
    {
      id: 'members',
      header: 'Devices',
      label: 'Devices',
      headerClassName: 'text-right',
      className: 'text-right tabular-nums',
      cell: (g) => g.member_count.toLocaleString(),
    },
    {
      id: 'updated',
      header: 'Updated',
      label: 'Updated',
      className: 'whitespace-nowrap text-slate-500 dark:text-slate-400',
      cell: (g) => relativeDay(g.updated_at),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      headerClassName: 'text-right',
      className: 'text-right whitespace-nowrap',
      isFull: true,
      cell: (g) => (
        <div className="inline-flex gap-0.5">
          <IconButton label={`Deploy to ${g.name}`} onClick={() => onDeploy(g)}>
            <Rocket className="size-4" />
          </IconButton>
          {g.can_edit && (
            <>
              <IconButton label={`Edit ${g.name}`} onClick={() => onEdit(g)}>
                <Pencil className="size-4" />
              </IconButton>
              <IconButton label={`Delete ${g.name}`} onClick={() => onDelete(g)}>
                <Trash2 className="size-4" />
              </IconButton>
            </>
          )}
        </div>
      ),
    },
  ];
}
