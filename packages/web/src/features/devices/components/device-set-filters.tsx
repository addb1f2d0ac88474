import { useState } from 'react';
import { Columns3, SlidersHorizontal, X } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { Input, Select } from '../../../components/ui/form';
import { FilterSelect } from '../../../components/ui/list-toolbar';
import { Menu } from '../../../components/ui/menu';
import { TagChip } from '../../../components/ui/tag-chip';
import type { FieldOption } from '../../../lib/api/device-sets';
import { useFieldOptions, useGroupOptions } from '../../../lib/api/device-sets';
import { useTags } from '../../../lib/api/tags';
import type { FieldOp, useDeviceSetFilters } from '../lib/use-device-set-filters';

type SetFilterState = ReturnType<typeof useDeviceSetFilters>;

const opLabels: Record<FieldOp, string> = { eq: 'is', lt: 'is below', gt: 'is above' };

/** The tag, group and custom-field filters of the device list (docs/product/device-sets.md#device-list-filters). */
export function DeviceSetFilters({ state }: { state: SetFilterState }) {
  const tags = useTags();
  const groups = useGroupOptions();
  const fields = useFieldOptions();
  const { filters } = state;
  const groupList = groups.data ?? null;
  const field = fields.data?.find((f) => f.key === filters.field_key);
  return (
    <>
      <FilterSelect
        label="Tag"
        value={filters.tag_id ? String(filters.tag_id) : ''}
        onChange={state.setTag}
        options={[
          { value: '', label: 'All tags' },
          ...(tags.data ?? []).map((t) => ({ value: String(t.id), label: t.name })),
          ...(filters.tag_id && !tags.data?.some((t) => t.id === filters.tag_id)
            ? [{ value: String(filters.tag_id), label: `Tag #${filters.tag_id}` }]
            : []),
        ]}
        className="sm:w-44"
      />
      {(groupList !== null || filters.group_id) && (
        <FilterSelect
          label="Group"
          value={filters.group_id ? String(filters.group_id) : ''}
          onChange={state.setGroup}
          options={[
            { value: '', label: 'All groups' },
            ...(groupList ?? []).map((g) => ({ value: String(g.id), label: g.name })),
            ...(filters.group_id && !groupList?.some((g) => g.id === filters.group_id)
              ? [{ value: String(filters.group_id), label: `Group #${filters.group_id}` }]
              : []),
          ]}
          className="sm:w-40"
        />
      )}
      {filters.field_key !== undefined ? (
        <TagChip
          name={`${field?.name ?? filters.field_key} ${opLabels[filters.field_op ?? 'eq']} ${filters.field_value ?? ''}`}
          color="indigo"
          className="py-1 text-sm"
        >
          <button
            type="button"
            aria-label="Remove the custom field filter"
            onClick={() => state.setField(undefined)}
            className="rounded-sm opacity-70 hover:opacity-100"
          >
            <X className="size-3.5" />
          </button>
        </TagChip>
      ) : (
        (fields.data?.length ?? 0) > 0 && <FieldFilterMenu fields={fields.data!} onApply={state.setField} />
      )}
    </>
  );
}

function FieldFilterMenu({
  fields,
  onApply,
}: {
  fields: FieldOption[];
  onApply: (key: string, value: string, op: FieldOp) => void;
}) {
  const [key, setKey] = useState(fields[0]?.key ?? '');
  const [op, setOp] = useState<FieldOp>('eq');
  const [value, setValue] = useState('');
  const field = fields.find((f) => f.key === key);
  const isNumber = field?.field_type === 'number';
  const choices =
    field?.field_type === 'boolean'
      ? ['true', 'false']
      : field?.field_type === 'select'
        ? field.options
        : null;
  return (
    <Menu
      label="Filter by custom field"
      align="left"
      trigger={() => (
        <span className="inline-flex h-9 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800">
          <SlidersHorizontal className="size-4" aria-hidden />
          Custom field
        </span>
      )}
    >
      {(close) => (
        <form
          className="w-72 space-y-2 p-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (value.trim()) {
              onApply(key, value.trim(), isNumber ? op : 'eq');
              close();
            }
          }}
        >
          <Select
            aria-label="Custom field"
            value={key}
            onChange={(e) => {
              setKey(e.target.value);
              setValue('');
              setOp('eq');
            }}
          >
            {fields.map((f) => (
              <option key={f.key} value={f.key}>
                {f.name}
              </option>
            ))}
          </Select>
          {isNumber && (
            <Select aria-label="Comparison" value={op} onChange={(e) => setOp(e.target.value as FieldOp)}>
              {(['eq', 'lt', 'gt'] as const).map((o) => (
                <option key={o} value={o}>
                  {opLabels[o]}
                </option>
              ))}
            </Select>
          )}
          {choices ? (
            <Select aria-label="Value" value={value} onChange={(e) => setValue(e.target.value)}>
              <option value="">Choose a value</option>
              {choices.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
          ) : (
            <Input
              aria-label="Value"
              placeholder="Value"
              type={isNumber ? 'number' : field?.field_type === 'date' ? 'date' : 'text'}
              value={value}
              onChange={(e) => setValue(e.target.value)}
            />
          )}
          <Button type="submit" size="sm" variant="primary" className="w-full" disabled={!value.trim()}>
            Apply filter
          </Button>
        </form>
      )}
    </Menu>
  );
}

/** The "Columns" menu: custom fields to show as columns of the list. */
export function FieldColumnsMenu({ shown, onToggle }: { shown: string[]; onToggle: (key: string) => void }) {
  const fields = useFieldOptions();
  if (!fields.data?.length) {
    return null;
  }
  return (
    <Menu
      label="Columns"
      trigger={() => (
        <span className="inline-flex h-9 items-center gap-1.5 rounded-md border border-slate-300 bg-white px-3 text-sm text-slate-700 hover:bg-slate-50 dark:border-slate-700 dark:bg-slate-900 dark:text-slate-200 dark:hover:bg-slate-800">
          <Columns3 className="size-4" aria-hidden />
          Columns
        </span>
      )}
    >
      {() => (
        <div className="p-1">
          <p className="px-2.5 py-1.5 text-xs font-medium text-slate-500 dark:text-slate-400">
            Custom fields
          </p>
          {fields.data!.map((f) => (
            <label
              key={f.key}
              className="flex cursor-pointer items-center gap-2.5 rounded-md px-2.5 py-2 text-sm text-slate-700 hover:bg-slate-100 dark:text-slate-200 dark:hover:bg-slate-700/60"
            >
              <input
                type="checkbox"
                role="menuitemcheckbox"
                aria-checked={shown.includes(f.key)}
                checked={shown.includes(f.key)}
                onChange={() => onToggle(f.key)}
                className="size-4 accent-indigo-600"
              />
              {f.name}
            </label>
          ))}
        </div>
      )}
    </Menu>
  );
}
