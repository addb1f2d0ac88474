import { Filter } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { useSiteOptions } from '../../../lib/api/devices';
import { relativeTime } from '../../../lib/format';
import { useTagOptions } from '../api/condition-options';
import type { GroupDetail } from '../api/groups';
import { describeCondition } from '../lib/conditions';

/** A dynamic group's conditions in words, and when its members were last evaluated in full. */
export function GroupConditions({ group }: { group: GroupDetail }) {
  const sites = useSiteOptions();
  const tags = useTagOptions();
  const names = {
    site: (id: number) => sites.data?.find((s) => s.id === id)?.site_name ?? `Site #${id}`,
    tag: (id: number) => tags.data?.find((t) => t.id === id)?.name ?? `Tag #${id}`,
  };
  const filter = group.filter;
  if (!filter) {
    return null;
  }
  return (
    <Card className="mb-4 p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="flex items-center gap-2 text-sm font-semibold text-slate-900 dark:text-white">
          <Filter className="size-4 text-indigo-600 dark:text-indigo-400" aria-hidden />
          Devices that match {filter.match === 'all' ? 'all' : 'any'} of these conditions
        </h2>
        {group.evaluated_at && (
          <span className="text-xs text-slate-500 dark:text-slate-400">
            Kept up to date as devices change · last full evaluation{' '}
            {relativeTime(group.evaluated_at).toLowerCase()}
          </span>
        )}
      </div>
      <ul className="mt-3 flex flex-wrap gap-2">
        {filter.conditions.map((c, i) => (
          <li
            key={i}
            className="rounded-md bg-slate-100 px-2.5 py-1 text-sm text-slate-700 dark:bg-slate-800 dark:text-slate-200"
          >
            {describeCondition(c, names)}
          </li>
        ))}
      </ul>
    </Card>
  );
}
