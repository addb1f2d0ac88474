import { Building2 } from 'lucide-react';
import type { SiteOption } from '@outpost/contract/devices';
import { Checkbox } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';

/** The sites a user with specific access may see: one checkbox per site of the organization. */
export function SiteMultiSelect({
  sites,
  isLoading,
  selected,
  onChange,
}: {
  sites: SiteOption[];
  isLoading: boolean;
  selected: number[];
  onChange: (ids: number[]) => void;
}) {
  const toggle = (id: number) =>
    onChange(selected.includes(id) ? selected.filter((s) => s !== id) : [...selected, id]);
  if (isLoading) {
    return (
      <div className="flex justify-center rounded-lg py-6 ring-1 ring-slate-200 dark:ring-slate-700">
        <Spinner className="size-5 text-indigo-600 dark:text-indigo-400" label="Loading sites" />
      </div>
    );
  }
  if (sites.length === 0) {
    return (
      <p className="rounded-lg px-3 py-4 text-center text-sm text-slate-500 ring-1 ring-slate-200 dark:text-slate-400 dark:ring-slate-700">
        No sites yet. Create a site first, or choose All Sites.
      </p>
    );
  }
  return (
    <div role="group" aria-label="Sites" className="rounded-lg ring-1 ring-slate-200 dark:ring-slate-700">
      <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2 text-xs text-slate-500 dark:border-slate-700 dark:text-slate-400">
        <span>
          {selected.length} of {sites.length} selected
        </span>
        <button
          type="button"
          className="font-medium text-indigo-600 hover:text-indigo-500 dark:text-indigo-400"
          onClick={() => onChange(selected.length === sites.length ? [] : sites.map((s) => s.id))}
        >
          {selected.length === sites.length ? 'Select none' : 'Select all'}
        </button>
      </div>
      <ul className="max-h-48 divide-y divide-slate-100 overflow-y-auto dark:divide-slate-800">
        {sites.map((s) => (
          <li key={s.id} className="px-3 py-2">
            <Checkbox
              checked={selected.includes(s.id)}
              onChange={() => toggle(s.id)}
              label={
                <span className="flex items-center gap-2">
                  <Building2 className="size-3.5 text-slate-400" aria-hidden />
                  {s.site_name}
                  <span className="font-mono text-xs text-slate-500 dark:text-slate-400">{s.site_code}</span>
                </span>
              }
            />
          </li>
        ))}
      </ul>
    </div>
  );
}
