import type { ReactNode } from 'react';

/** Label/value rows of a detail card. */
export function DetailList({ items }: { items: [label: string, value: ReactNode][] }) {
  return (
    <dl className="divide-y divide-slate-100 dark:divide-slate-800">
      {items.map(([label, value]) => (
        <div key={label} className="grid grid-cols-5 gap-4 px-5 py-2.5 text-sm">
          <dt className="col-span-2 text-slate-500 dark:text-slate-400">{label}</dt>
          <dd className="col-span-3 min-w-0 font-medium break-words text-slate-900 dark:text-slate-100">
            {value}
          </dd>
        </div>
      ))}
    </dl>
  );
}
