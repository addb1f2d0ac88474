import type { EnrollmentToken } from '@outpost/contract/agents';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { relativeTime } from '../../../lib/format';

/** The tenant's active enrolment tokens (never their secrets), each with Revoke. */
export function ActiveTokens({
  tokens,
  isRevoking,
  onRevoke,
}: {
  tokens: EnrollmentToken[];
  isRevoking: boolean;
  onRevoke: (id: number) => void;
}) {
  return (
    <div>
      <p className="mb-2 text-sm font-medium text-slate-700 dark:text-slate-200">Active tokens</p>
      {tokens.length === 0 ? (
        <p className="text-sm text-slate-500 dark:text-slate-400">No active tokens. Create one above.</p>
      ) : (
        <ul className="max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800">
          {tokens.map((t) => (
            <li key={t.id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <code className="rounded bg-slate-100 px-1.5 py-0.5 text-xs dark:bg-slate-800">
                {t.token_prefix}…
              </code>
              <div className="min-w-0 flex-1">
                <p title={t.name ?? undefined} className="truncate text-slate-800 dark:text-slate-200">
                  {t.name ?? 'Unnamed token'}
                </p>
                <p className="text-xs text-slate-500 dark:text-slate-400">
                  {t.site_name ?? 'No site'} · used {t.use_count}× · created{' '}
                  {relativeTime(t.created_at).toLowerCase()}
                </p>
              </div>
              {t.expires_at && (
                <Badge tone="gray">expires {new Date(t.expires_at).toLocaleDateString()}</Badge>
              )}
              <Button size="sm" variant="ghost" onClick={() => onRevoke(t.id)} disabled={isRevoking}>
                Revoke
              </Button>
            </li>
          ))}
        </ul>
      )}
      <p className="mt-2 text-xs text-slate-500 dark:text-slate-400">
        A token is shown only when it is created. Create a new one to see the install commands.
      </p>
    </div>
  );
}
