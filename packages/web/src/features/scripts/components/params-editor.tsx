import { ArrowDown, ArrowUp, Plus, Trash2 } from 'lucide-react';
import { PARAM_TYPES, paramEnvName } from '@outpost/contract/scripts';
import type { ParamType } from '@outpost/contract/scripts';
import { Button, IconButton } from '../../../components/ui/button';
import { Checkbox, Field, Input, Select, Textarea } from '../../../components/ui/form';
import { newParam } from '../lib/script-draft';
import type { ParamDraft } from '../lib/script-draft';

// The editor's parameters (docs/product/scripts.md#parameters): name (OUTPOST_<NAME> in the
// script's environment), label, type and the fields the type has.

const TYPE_LABELS: Record<ParamType, string> = {
  text: 'Text',
  number: 'Number',
  boolean: 'Yes / no',
  select: 'Choice',
  secret: 'Secret',
};

export function ParamsEditor({
  params,
  onChange,
  readOnly,
}: {
  params: ParamDraft[];
  onChange: (params: ParamDraft[]) => void;
  readOnly: boolean;
}) {
  const set = (key: string, patch: Partial<ParamDraft>) =>
    onChange(params.map((p) => (p.key === key ? { ...p, ...patch } : p)));
  const move = (index: number, by: number) => {
    const next = [...params];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };
  return (
    <div className="space-y-3">
      {params.length === 0 && (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          No parameters. Each parameter reaches the script as an environment variable OUTPOST_&lt;NAME&gt;.
        </p>
      )}
      {params.map((p, index) => (
        <fieldset
          key={p.key}
          disabled={readOnly}
          data-testid="param-row"
          className="space-y-3 rounded-lg border border-slate-200 p-3 dark:border-slate-700"
        >
          <legend className="sr-only">Parameter {index + 1}</legend>
          <div className="grid gap-3 sm:grid-cols-[1fr_1fr_10rem_auto]">
            <Field label="Name" htmlFor={`p-name-${p.key}`} hint={p.name ? paramEnvName(p.name) : undefined}>
              <Input
                id={`p-name-${p.key}`}
                value={p.name}
                className="font-mono"
                onChange={(e) => set(p.key, { name: e.target.value })}
              />
            </Field>
            <Field label="Label" htmlFor={`p-label-${p.key}`}>
              <Input
                id={`p-label-${p.key}`}
                value={p.label}
                onChange={(e) => set(p.key, { label: e.target.value })}
              />
            </Field>
            <Field label="Type" htmlFor={`p-type-${p.key}`}>
              <Select
                id={`p-type-${p.key}`}
                value={p.type}
                onChange={(e) => set(p.key, { type: e.target.value as ParamType, default: '' })}
              >
                {PARAM_TYPES.map((t) => (
                  <option key={t} value={t}>
                    {TYPE_LABELS[t]}
                  </option>
                ))}
              </Select>
            </Field>
            <div className="flex items-end gap-1 pb-0.5">
              <IconButton label="Move up" disabled={index === 0} onClick={() => move(index, -1)}>
                <ArrowUp className="size-4" />
              </IconButton>
              <IconButton
                label="Move down"
                disabled={index === params.length - 1}
                onClick={() => move(index, 1)}
              >
                <ArrowDown className="size-4" />
              </IconButton>
              <IconButton
                label={`Remove ${p.name || 'parameter'}`}
                onClick={() => onChange(params.filter((x) => x.key !== p.key))}
              >
                <Trash2 className="size-4" />
              </IconButton>
            </div>
          </div>
          <TypeFields p={p} set={(patch) => set(p.key, patch)} />
          <Checkbox
            label="Required"
            checked={p.required}
            onChange={(e) => set(p.key, { required: e.target.checked })}
          />
        </fieldset>
      ))}
      {!readOnly && (
        <Button
          icon={<Plus className="size-4" />}
          disabled={params.length >= 20}
          onClick={() => onChange([...params, newParam()])}
        >
          Add parameter
        </Button>
      )}
    </div>
  );
}

function TypeFields({ p, set }: { p: ParamDraft; set: (patch: Partial<ParamDraft>) => void }) {
  const id = (f: string) => `p-${f}-${p.key}`;
  switch (p.type) {
    case 'number':
      return (
        <div className="grid gap-3 sm:grid-cols-3">
          <Field label="Default" htmlFor={id('default')}>
            <Input
              id={id('default')}
              type="number"
              value={p.default}
              onChange={(e) => set({ default: e.target.value })}
            />
          </Field>
          <Field label="Minimum" htmlFor={id('min')}>
            <Input
              id={id('min')}
              type="number"
              value={p.min}
              onChange={(e) => set({ min: e.target.value })}
            />
          </Field>
          <Field label="Maximum" htmlFor={id('max')}>
            <Input
              id={id('max')}
              type="number"
              value={p.max}
              onChange={(e) => set({ max: e.target.value })}
            />
          </Field>
        </div>
      );
    case 'boolean':
      return (
        <Field label="Default" htmlFor={id('default')}>
          <Select id={id('default')} value={p.default} onChange={(e) => set({ default: e.target.value })}>
            <option value="">(none)</option>
            <option value="true">true</option>
            <option value="false">false</option>
          </Select>
        </Field>
      );
    case 'select':
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Options (one a line)" htmlFor={id('options')}>
            <Textarea
              id={id('options')}
              rows={3}
              value={p.options}
              onChange={(e) => set({ options: e.target.value })}
            />
          </Field>
          <Field label="Default" htmlFor={id('default')}>
            <Select id={id('default')} value={p.default} onChange={(e) => set({ default: e.target.value })}>
              <option value="">(none)</option>
              {p.options
                .split('\n')
                .map((o) => o.trim())
                .filter(Boolean)
                .map((o) => (
                  <option key={o} value={o}>
                    {o}
                  </option>
                ))}
            </Select>
          </Field>
        </div>
      );
    case 'secret':
      return (
        <div className="space-y-2">
          <Field
            label={
              p.hasSaved && !p.clearSaved
                ? 'New saved value (leave empty to keep the saved one)'
                : 'Saved value (optional)'
            }
            htmlFor={id('default')}
            hint="Stored encrypted; never shown again, never in the audit log or exports."
          >
            <Input
              id={id('default')}
              type="password"
              autoComplete="new-password"
              value={p.default}
              onChange={(e) => set({ default: e.target.value })}
            />
          </Field>
          {p.hasSaved && (
            <Checkbox
              label="Remove the saved value"
              checked={p.clearSaved}
              onChange={(e) => set({ clearSaved: e.target.checked, default: '' })}
            />
          )}
        </div>
      );
    case 'text':
      return (
        <div className="grid gap-3 sm:grid-cols-2">
          <Field label="Default" htmlFor={id('default')}>
            <Input id={id('default')} value={p.default} onChange={(e) => set({ default: e.target.value })} />
          </Field>
          <Field label="Pattern (regular expression)" htmlFor={id('pattern')}>
            <Input
              id={id('pattern')}
              className="font-mono"
              value={p.pattern}
              onChange={(e) => set({ pattern: e.target.value })}
            />
          </Field>
        </div>
      );
  }
}
