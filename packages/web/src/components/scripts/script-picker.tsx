import { useState } from 'react';
import { SCRIPT_LANGUAGE_LABELS } from '@outpost/contract/scripts';
import { useScripts } from '../../lib/api/scripts';
import { cn } from '../../lib/cn';
import { Input } from '../ui/form';
import { Spinner } from '../ui/spinner';

// The Run dialog's script choice when the screen gave none: the library, searchable.

export function ScriptPicker({ value, onChange }: { value: number | null; onChange: (id: number) => void }) {
  const [search, setSearch] = useState('');
  const list = useScripts({ page: 1, limit: 50, search, category: '', language: '', os: '' });
  const rows = list.data?.data ?? [];
  return (
    <div className="space-y-2">
      <Input
        aria-label="Search scripts"
        placeholder="Search scripts..."
        value={search}
        onChange={(e) => setSearch(e.target.value)}
      />
      <div
        role="listbox"
        aria-label="Scripts"
        className="max-h-48 overflow-y-auto rounded-md border border-slate-200 dark:border-slate-700"
      >
        {list.isPending ? (
          <Spinner className="m-2 size-4 text-slate-400" />
        ) : rows.length === 0 ? (
          <p className="p-2 text-sm text-slate-500 dark:text-slate-400">No scripts found.</p>
        ) : (
          rows.map((s) => (
            <button
              key={s.id}
              type="button"
              role="option"
              aria-selected={value === s.id}
              onClick={() => onChange(s.id)}
              className={cn(
                'flex w-full items-center justify-between gap-3 px-3 py-2 text-left text-sm hover:bg-slate-50 dark:hover:bg-slate-800',
                value === s.id && 'bg-indigo-50 dark:bg-indigo-950/50',
              )}
            >
              <span className="font-medium text-slate-900 dark:text-white">{s.name}</span>
              <span className="shrink-0 text-xs text-slate-500 dark:text-slate-400">
                {SCRIPT_LANGUAGE_LABELS[s.language]}
              </span>
            </button>
          ))
        )}
      </div>
    </div>
  );
}
