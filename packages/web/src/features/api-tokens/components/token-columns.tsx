import { Trash2 } from 'lucide-react';
import type { ApiToken } from '@outpost/contract/api-tokens';
import { Badge } from '../../../components/ui/badge';
import type { Tone } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import type { Column } from '../../../components/ui/data-table';
import { formatDateTime } from '../../../lib/format';

// The columns of the API tokens list (docs/product/administration.md#api-tokens): name and prefix,
// scopes, sites, state and expiry, last use and its address, creation and creator, revoke.

const STATE_TONE: Record<ApiToken['state'], Tone> = { active: 'green', expired: 'yellow', revoked: 'gray' };

export function tokenColumns(
  siteNames: ReadonlyMap<number, string>,
  onRevoke: (token: ApiToken) => void,
): Column<ApiToken>[] {
  return [
    {
      id: 'name',
      header: 'Name',
      sticky: true,
      cell: (t) => (
        <div>
          <p className="font-medium text-slate-900 dark:text-white">{t.name}</p>
          <p className="font-mono text-xs text-slate-500 dark:text-slate-400">{t.token_prefix}…</p>
        </div>
      ),
    },
    {
      id: 'scopes',
      header: 'Scopes',
      label: 'Scopes',
      cell: (t) => (
        <div className="flex max-w-xs flex-wrap gap-1">
          {t.scopes.map((s) => (
            <Badge key={s} tone={s.endsWith(':write') ? 'indigo' : 'gray'}>
              {s}
            </Badge>
          ))}
        </div>
      ),
    },
    {
      id: 'sites',
      header: 'Sites',
      label: 'Sites',
      cell: (t) =>
        t.site_ids ? t.site_ids.map((id) => siteNames.get(id) ?? `#${id}`).join(', ') : 'All sites',
    },
    {
      id: 'state',
      header: 'State',
      label: 'State',
      cell: (t) => (
        <div>
          <Badge tone={STATE_TONE[t.state]}>{t.state}</Badge>
          <p className="mt-0.5 text-xs whitespace-nowrap text-slate-500 dark:text-slate-400">
            {t.expires_at ? `Expires ${formatDateTime(t.expires_at)}` : 'No expiry'}
          </p>
        </div>
      ),
    },
    {
      id: 'last-used',
      header: 'Last used',
      label: 'Last used',
      className: 'whitespace-nowrap',
      cell: (t) =>
        t.last_used_at ? (
          <div>
            <p>{formatDateTime(t.last_used_at)}</p>
            <p className="text-xs text-slate-500 dark:text-slate-400">
              from {t.last_used_ip ?? 'unknown address'}
            </p>
          </div>
        ) : (
          <span className="text-slate-500 dark:text-slate-400">Never</span>
        ),
    },
    {
      id: 'created',
      header: 'Created',
      label: 'Created',
      className: 'whitespace-nowrap text-slate-500 dark:text-slate-400',
      cell: (t) => (
        <div>
          <p>{formatDateTime(t.created_at)}</p>
          <p className="text-xs">by {t.created_by_name ?? 'a former administrator'}</p>
        </div>
      ),
    },
    {
      id: 'actions',
      header: <span className="sr-only">Actions</span>,
      className: 'text-right',
      cell: (t) =>
        t.state === 'revoked' ? null : (
          <Button
            size="sm"
            variant="ghost"
            aria-label={`Revoke API token ${t.name}`}
            title="Revoke"
            className="text-red-600 hover:text-red-700 dark:text-red-400"
            icon={<Trash2 className="size-4" />}
            onClick={() => onRevoke(t)}
          />
        ),
    },
  ];
}
