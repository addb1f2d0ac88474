import { ArrowRight, Terminal } from 'lucide-react';
import type { AppConfig } from '@outpost/contract/auth';
import { roleLabel } from '@outpost/contract/auth';
import { Spinner } from '../../../components/ui/spinner';

/** The development sign-in: the server's invited users, each signed in with one click. */
export function DevSignIn({
  users,
  isPending,
  pendingEmail,
  onSignIn,
}: {
  users: AppConfig['devUsers'];
  /** a sign-in is under way: the buttons wait */
  isPending: boolean;
  /** the user being signed in, whose row shows a spinner */
  pendingEmail: string | null;
  onSignIn: (email: string) => void;
}) {
  return (
    <section
      className="mt-8 rounded-xl border border-dashed border-amber-300 bg-amber-50/60 p-4 dark:border-amber-500/40 dark:bg-amber-500/5"
      aria-labelledby="dev-login-title"
    >
      <div className="flex items-center gap-2">
        <Terminal className="size-4 text-amber-600 dark:text-amber-400" />
        <h2 id="dev-login-title" className="text-sm font-semibold text-amber-900 dark:text-amber-300">
          Development sign-in
        </h2>
      </div>
      <p className="mt-1 text-xs text-amber-800 dark:text-amber-300/90">
        No Google client id is configured, so this server offers its invited users directly. Never enable this
        on a public address.
      </p>
      <ul className="mt-3 space-y-2">
        {users.map((u) => (
          <li key={u.email}>
            <button
              type="button"
              onClick={() => onSignIn(u.email)}
              disabled={isPending}
              className="group flex w-full items-center justify-between gap-3 rounded-lg bg-white px-3 py-2.5 text-left shadow-sm ring-1 ring-slate-200 transition hover:ring-indigo-400 disabled:opacity-60 dark:bg-slate-900 dark:ring-slate-700 dark:hover:ring-indigo-500"
            >
              <span className="min-w-0">
                <span className="block truncate text-sm font-medium text-slate-900 dark:text-white">
                  {u.name ?? u.email}
                </span>
                <span className="block truncate text-xs text-slate-500 dark:text-slate-400">
                  {u.email} ·{' '}
                  {u.tenants.map((t) => `${t.tenant_name} (${roleLabel(t.role, true)})`).join(', ')}
                </span>
              </span>
              {pendingEmail === u.email ? (
                <Spinner className="size-4 shrink-0 text-indigo-600" />
              ) : (
                <ArrowRight className="size-4 shrink-0 text-slate-300 group-hover:text-indigo-500" />
              )}
            </button>
          </li>
        ))}
        {users.length === 0 && (
          <li className="text-xs text-amber-800 dark:text-amber-300">
            No users yet. Create a tenant with `npm run outpost -- tenant:create`.
          </li>
        )}
      </ul>
    </section>
  );
}
