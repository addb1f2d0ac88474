import type { ReactNode } from 'react';
import { ShieldAlert } from 'lucide-react';
import { Link } from 'react-router';
import { ApiError } from '../../lib/api-client';
import { Card } from './card';

/** The server's answer for a signed-in member who is not an administrator (docs/product/administration.md#who-may-do-what). */
export const isForbidden = (err: unknown) => err instanceof ApiError && err.status === 403;

/**
 * What a regular user sees on an administrators-only screen, instead of a failed load: what the
 * screen is for, that only administrators use it, and who can help.
 */
export function AdminOnlyState({ feature, details }: { feature: string; details?: ReactNode }) {
  return (
    <Card>
      <div className="flex flex-col items-center px-6 py-16 text-center" data-testid="admin-only">
        <div className="mb-4 flex size-14 items-center justify-center rounded-2xl bg-amber-50 text-amber-600 dark:bg-amber-500/10 dark:text-amber-400">
          <ShieldAlert className="size-7" aria-hidden />
        </div>
        <h2 className="text-lg font-semibold text-slate-900 dark:text-white">Administrators only</h2>
        <p className="mt-2 max-w-md text-sm text-slate-500 dark:text-slate-400">
          {details ??
            `${feature} is available to your organization's administrators. Ask an administrator if you need a change made or access granted.`}
        </p>
        <Link
          to="/dashboard"
          className="mt-5 text-sm font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400"
        >
          Back to the dashboard
        </Link>
      </div>
    </Card>
  );
}
