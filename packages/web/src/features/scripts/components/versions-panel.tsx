import { useMemo, useState } from 'react';
import { GitCompare } from 'lucide-react';
import type { ScriptVersionDetail } from '@outpost/contract/scripts';
import { Card, CardHeader } from '../../../components/ui/card';
import { Field, Select } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { cn } from '../../../lib/cn';
import { formatDateTime } from '../../../lib/format';
import { useScriptVersion, useScriptVersions } from '../api/script-calls';
import { fieldChanges, lineDiff } from '../lib/diff';

// The Versions panel (docs/product/scripts.md#versions): every saved version with who, when and
// the change note, and the difference between any two of them.

export function VersionsPanel({ scriptId, current }: { scriptId: number; current: number }) {
  const versions = useScriptVersions(scriptId);
  // the editor mounts anew for each saved version, so these start from the current one
  const [from, setFrom] = useState<number | null>(current > 1 ? current - 1 : null);
  const [to, setTo] = useState<number | null>(current);
  const list = versions.data ?? [];

  return (
    <Card>
      <CardHeader title="Versions" description="Every saved change is a version." />
      <div className="space-y-4 p-5">
        {versions.isPending ? (
          <Spinner className="size-5 text-slate-400" />
        ) : (
          <ol className="max-h-56 space-y-2 overflow-y-auto text-sm" aria-label="Versions">
            {list.map((v) => (
              <li key={v.version} className="flex flex-wrap items-baseline gap-x-2">
                <span className="font-medium text-slate-900 dark:text-white">v{v.version}</span>
                <span className="text-slate-500 dark:text-slate-400">
                  {formatDateTime(v.created_at)} · {v.created_by_name ?? 'Unknown'}
                </span>
                {v.change_note && (
                  <span className="w-full text-slate-700 dark:text-slate-300">{v.change_note}</span>
                )}
              </li>
            ))}
          </ol>
        )}
        {list.length > 1 && (
          <div className="grid grid-cols-2 gap-3">
            <Field label="Compare" htmlFor="diff-from">
              <Select id="diff-from" value={from ?? ''} onChange={(e) => setFrom(Number(e.target.value))}>
                {list.map((v) => (
                  <option key={v.version} value={v.version}>
                    v{v.version}
                  </option>
                ))}
              </Select>
            </Field>
            <Field label="with" htmlFor="diff-to">
              <Select id="diff-to" value={to ?? ''} onChange={(e) => setTo(Number(e.target.value))}>
                {list.map((v) => (
                  <option key={v.version} value={v.version}>
                    v{v.version}
                  </option>
                ))}
              </Select>
            </Field>
          </div>
        )}
      </div>
      {from !== null && to !== null && list.length > 1 && (
        <VersionDiff scriptId={scriptId} from={from} to={to} />
      )}
    </Card>
  );
}

function VersionDiff({ scriptId, from, to }: { scriptId: number; from: number; to: number }) {
  const a = useScriptVersion(scriptId, from);
  const b = useScriptVersion(scriptId, to);
  if (!a.data || !b.data) {
    return <Spinner className="m-5 size-5 text-slate-400" />;
  }
  return <DiffView a={a.data} b={b.data} />;
}

export function DiffView({ a, b }: { a: ScriptVersionDetail; b: ScriptVersionDetail }) {
  const lines = useMemo(() => lineDiff(a.body, b.body), [a.body, b.body]);
  const changes = useMemo(() => fieldChanges(a, b), [a, b]);
  const bodyChanged = lines.some((l) => l.kind !== 'same');
  return (
    <div className="space-y-3 border-t border-slate-200 p-5 dark:border-slate-800" data-testid="version-diff">
      <h3 className="flex items-center gap-2 text-sm font-semibold text-slate-900 dark:text-white">
        <GitCompare className="size-4" aria-hidden /> v{a.version} → v{b.version}
      </h3>
      {changes.length === 0 && !bodyChanged && (
        <p className="text-sm text-slate-500 dark:text-slate-400">These versions are the same.</p>
      )}
      {changes.length > 0 && (
        <dl className="space-y-2 text-sm">
          {changes.map((c) => (
            <div key={c.field}>
              <dt className="font-medium text-slate-700 dark:text-slate-200">{c.field}</dt>
              <dd className="break-words">
                <del className="bg-red-50 text-red-800 dark:bg-red-500/10 dark:text-red-300">
                  {c.before || '(empty)'}
                </del>{' '}
                →{' '}
                <ins className="bg-emerald-50 text-emerald-800 no-underline dark:bg-emerald-500/10 dark:text-emerald-300">
                  {c.after || '(empty)'}
                </ins>
              </dd>
            </div>
          ))}
        </dl>
      )}
      {bodyChanged && (
        <pre
          className="max-h-96 overflow-auto rounded-md border border-slate-200 bg-slate-50 py-2 font-mono text-xs leading-5 dark:border-slate-700 dark:bg-slate-950"
          aria-label="Script changes"
          tabIndex={0}
        >
          {lines.map((l, i) => (
            <div
              key={i}
              className={cn(
                'flex whitespace-pre',
                l.kind === 'added' &&
                  'bg-emerald-100 text-emerald-900 dark:bg-emerald-500/15 dark:text-emerald-200',
                l.kind === 'removed' && 'bg-red-100 text-red-900 dark:bg-red-500/15 dark:text-red-200',
                l.kind === 'same' && 'text-slate-700 dark:text-slate-300',
              )}
            >
              <span className="w-10 shrink-0 pr-2 text-right text-slate-500 select-none dark:text-slate-400">
                {l.oldNo ?? ''}
              </span>
              <span className="w-10 shrink-0 pr-2 text-right text-slate-500 select-none dark:text-slate-400">
                {l.newNo ?? ''}
              </span>
              <span className="w-4 shrink-0 select-none" aria-hidden>
                {l.kind === 'added' ? '+' : l.kind === 'removed' ? '-' : ' '}
              </span>
              <span className="sr-only">
                {l.kind === 'added' ? 'added: ' : l.kind === 'removed' ? 'removed: ' : ''}
              </span>
              <span className="pr-3">{l.text}</span>
            </div>
          ))}
        </pre>
      )}
    </div>
  );
}
