import { NavLink } from 'react-router';
import { FileCode2, History } from 'lucide-react';
import { cn } from '../../../lib/cn';

// docs/product/scripts.md — the Scripts area's two views: the library and the runs.
const tabs = [
  { to: '/scripts', label: 'Library', icon: FileCode2, end: true },
  { to: '/scripts/runs', label: 'Runs', icon: History, end: false },
];

export function ScriptsTabs() {
  return (
    <div className="mb-6 border-b border-slate-200 dark:border-slate-800">
      <nav className="-mb-px flex gap-1 overflow-x-auto" aria-label="Scripts">
        {tabs.map((t) => (
          <NavLink
            key={t.to}
            to={t.to}
            end={t.end}
            className={({ isActive }) =>
              cn(
                'inline-flex items-center gap-2 border-b-2 px-3 py-2.5 text-sm font-medium whitespace-nowrap transition-colors',
                isActive
                  ? 'border-indigo-600 text-indigo-600 dark:border-indigo-400 dark:text-indigo-400'
                  : 'border-transparent text-slate-500 hover:border-slate-300 hover:text-slate-700 dark:text-slate-400 dark:hover:border-slate-600 dark:hover:text-slate-200',
              )
            }
          >
            <t.icon className="size-4" aria-hidden />
            {t.label}
          </NavLink>
        ))}
      </nav>
    </div>
  );
}
