import type { ScriptParamView } from '@outpost/contract/scripts';
import { paramEnvName } from '@outpost/contract/scripts';
import { Checkbox, Field, Input, Select } from '../ui/form';

// The Run dialog's parameter form (docs/product/scripts.md#running-a-script), generated from the
// parameters' types: a secret is a password field, or "use the saved value" when one is saved.

export type ParamDraft = { value: string; useSaved: boolean };

/** The form's starting values: each default, a saved secret used as it is. */
export const initialDrafts = (params: readonly ScriptParamView[]): Record<string, ParamDraft> =>
  Object.fromEntries(
    params.map((p) => [
      p.name,
      { value: p.type === 'secret' ? '' : (p.default ?? ''), useSaved: p.has_default },
    ]),
  );

/** What the run sends: every non-empty value; a secret left out uses its saved value on the server. */
export function runValues(params: readonly ScriptParamView[], drafts: Record<string, ParamDraft>) {
  const values: Record<string, string> = {};
  for (const p of params) {
    const d = drafts[p.name];
    if (!d || (p.type === 'secret' && d.useSaved) || d.value === '') {
      continue;
    }
    values[p.name] = d.value;
  }
  return values;
}

export function RunParamsForm({
  params,
  drafts,
  onChange,
  error,
}: {
  params: readonly ScriptParamView[];
  drafts: Record<string, ParamDraft>;
  onChange: (name: string, draft: ParamDraft) => void;
  error: { name: string; message: string } | null;
}) {
  if (params.length === 0) {
    return <p className="text-sm text-slate-500 dark:text-slate-400">This script has no parameters.</p>;
  }
  return (
    <div className="space-y-3">
      {params.map((p) => {
        const id = `run-param-${p.name}`;
        const draft = drafts[p.name] ?? { value: '', useSaved: false };
        const set = (patch: Partial<ParamDraft>) => onChange(p.name, { ...draft, ...patch });
        return (
          <Field
            key={p.name}
            htmlFor={id}
            label={p.label || p.name}
            required={p.required}
            hint={hintOf(p)}
            error={error?.name === p.name ? error.message : undefined}
          >
            {p.type === 'select' ? (
              <Select id={id} value={draft.value} onChange={(e) => set({ value: e.target.value })}>
                {!p.required && <option value="">(none)</option>}
                {p.options.map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
              </Select>
            ) : p.type === 'boolean' ? (
              <Select id={id} value={draft.value} onChange={(e) => set({ value: e.target.value })}>
                {!p.required && <option value="">(none)</option>}
                <option value="true">true</option>
                <option value="false">false</option>
              </Select>
            ) : p.type === 'secret' ? (
              <div className="space-y-2">
                {p.has_default && (
                  <Checkbox
                    label="Use the saved value"
                    checked={draft.useSaved}
                    onChange={(e) => set({ useSaved: e.target.checked })}
                  />
                )}
                {!draft.useSaved && (
                  <Input
                    id={id}
                    type="password"
                    autoComplete="new-password"
                    value={draft.value}
                    onChange={(e) => set({ value: e.target.value })}
                  />
                )}
              </div>
            ) : (
              <Input
                id={id}
                type={p.type === 'number' ? 'number' : 'text'}
                min={p.min ?? undefined}
                max={p.max ?? undefined}
                value={draft.value}
                onChange={(e) => set({ value: e.target.value })}
              />
            )}
          </Field>
        );
      })}
    </div>
  );
}

function hintOf(p: ScriptParamView): string {
  const parts = [paramEnvName(p.name)];
  if (p.type === 'number' && (p.min !== null || p.max !== null)) {
    parts.push(`${p.min ?? '…'} to ${p.max ?? '…'}`);
  }
  if (p.type === 'text' && p.pattern) {
    parts.push(`matches ${p.pattern}`);
  }
  return parts.join(' · ');
}
