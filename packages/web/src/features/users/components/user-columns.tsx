import { Pencil, Trash2 } from 'lucide-react';
import { roleLabel } from '@outpost/contract/auth';
import type { SiteOption } from '@outpost/contract/devices';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import type { TenantUser } from '../../../lib/api/users';
import { formatDateTime, initials, relativeDay } from '../../../lib/format';
import { parseSiteIds } from '../lib/user-form';

function SiteAccess({ user, sites }: { user: TenantUser; sites: readonly SiteOption[] }) {
  if (user.site_access_type === 'all') {
    return <span className="text-slate-600 dark:text-slate-300">All Sites</span>;
  }
  const ids = parseSiteIds(user.assigned_site_ids);
  if (ids.length === 0) {
    return <span className="text-slate-500 dark:text-slate-400">No sites</span>;
  }
  return (
    <div className="flex max-w-64 flex-wrap gap-1">
      {ids.map((id) => {
        const site = sites.find((s) => s.id === id);
        return (
          <Badge key={id} tone="gray" className="font-normal">
            <span title={site?.site_code}>{site ? site.site_name : `Site ${id}`}</span>
          </Badge>
        );
      })}
    </div>
  );
}

function UserCell({ user, isMe }: { user: TenantUser; isMe: boolean }) {
  return (
    <div className="flex items-center gap-3">
      <span
        aria-hidden
        className="flex size-8 shrink-0 items-center justify-center rounded-full bg-indigo-100 text-xs font-semibold text-indigo-700 dark:bg-indigo-500/20 dark:text-indigo-300"
      >
        {initials(user.name, user.email)}
      </span>
      <div className="min-w-0">
        <div className="flex items-center gap-2 font-medium text-slate-900 dark:text-white">
          {user.name || user.email}
          {isMe && <Badge tone="indigo">You</Badge>}
          {user.status === 'invited' && <Badge tone="yellow">Invited</Badge>}
        </div>
        <div className="text-xs text-slate-500 dark:text-slate-400">{user.email}</div>
      </div>
    </div>
  );
}

/** The users list's columns (docs/product/administration.md#users Users); your own row cannot be deleted. */
export function userColumns({
  meId,
  sites,
  ownDeleteReason,
  onEdit,
  onDelete,
}: {
  meId: number;
  sites: readonly SiteOption[];
  ownDeleteReason: string;
  onEdit: (user: TenantUser) => void;
  onDelete: (user: TenantUser) => void;
}): Column<TenantUser>[] {
  return [
    {
      id: 'user',
      header: 'User',
      sticky: true,
      className: 'whitespace-nowrap',
      cell: (u) => <UserCell user={u} isMe={u.id === meId} />,
    },
    {
      id: 'role',
      header: 'Role',
      cell: (u) => (
        <Badge tone={u.role === 'tenant_admin' ? 'purple' : 'gray'}>{roleLabel(u.role, true)}</Badge>
      ),
    },
    { id: 'site-access', header: 'Site Access', cell: (u) => <SiteAccess user={u} sites={sites} /> },
    {
      id: 'created',
      header: 'Created',
      className: 'whitespace-nowrap',
      title: (u) => formatDateTime(u.created_at),
      cell: (u) => relativeDay(u.created_at),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      headerClassName: 'text-right',
      className: 'text-right whitespace-nowrap',
      cell: (u) => (
        <>
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Edit ${u.email}`}
            icon={<Pencil className="size-3.5" />}
            onClick={() => onEdit(u)}
          />
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Delete ${u.email}`}
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-3.5" />}
            disabled={u.id === meId}
            disabledReason={ownDeleteReason}
            onClick={() => onDelete(u)}
          />
        </>
      ),
    },
  ];
}
