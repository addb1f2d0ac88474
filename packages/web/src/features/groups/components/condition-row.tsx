import { Trash2 } from 'lucide-react';
import type { GroupConditionField, GroupConditionInput } from '@outpost/contract/groups';
import { IconButton } from '../../../components/ui/button';
import { Input, Select } from '../../../components/ui/form';
import { cn } from '../../../lib/cn';
import type { Option } from '../lib/conditions';
import {
  ARCH_OPTIONS,
  FIELD_OPTIONS,
  OPS,
  OS_OPTIONS,
  STATUS_OPTIONS,
  VERSION_OP_OPTIONS,
  newCondition,
} from '../lib/conditions';

export type ConditionChoices = {
  sites: Option[];
  tags: Option[];
  fields: Option[];
};

type Props = {
  index: number;
  condition: GroupConditionInput;
  onChange: (c: GroupConditionInput) => void;
  onRemove: (() => void) | null;
  choices: ConditionChoices;
  isDisabled?: boolean;
};

function Choice({
  label,
  value,
  options,
  onChange,
  className,
  isDisabled,
}: {
  label: string;
  value: string;
  options: Option[];
  onChange: (value: string) => void;
  className?: string;
  isDisabled?: boolean;
}) {
  return (
    <Select
      aria-label={label}
      value={value}
      disabled={isDisabled}
      onChange={(e) => onChange(e.target.value)}
      className={cn('w-auto min-w-0', className)}
    >
      {options.map((o) => (
        <option key={o.value} value={o.value}>
          {o.label}
        </option>
      ))}
    </Select>
  );
}

/** The value inputs of one condition: what follows its field and operator. */
function ConditionValue({ index, condition: c, onChange, choices, isDisabled }: Omit<Props, 'onRemove'>) {
  const n = index + 1;
  const text = (
    label: string,
    value: string,
    set: (v: string) => void,
    placeholder?: string,
    className?: string,
  ) => (
    <Input
      aria-label={`${label} (condition ${n})`}
      value={value}
      placeholder={placeholder}
      disabled={isDisabled}
      onChange={(e) => set(e.target.value)}
      className={cn('min-w-0 flex-1', className)}
    />
  );
  switch (c.field) {
    case 'status':
      return (
        <Choice
          label={`Status (condition ${n})`}
          value={c.value}
          options={STATUS_OPTIONS}
          onChange={(v) => onChange({ ...c, value: v as typeof c.value })}
          isDisabled={isDisabled}
        />
      );
    case 'os_type':
      return (
        <Choice
          label={`Operating system (condition ${n})`}
          value={c.value}
          options={OS_OPTIONS}
          onChange={(v) => onChange({ ...c, value: v as typeof c.value })}
          isDisabled={isDisabled}
        />
      );
    case 'architecture':
      return (
        <Choice
          label={`Architecture (condition ${n})`}
          value={c.value}
          options={ARCH_OPTIONS}
          onChange={(v) => onChange({ ...c, value: v as typeof c.value })}
          isDisabled={isDisabled}
        />
      );
    case 'os_version':
      return text('OS version', c.value, (v) => onChange({ ...c, value: v }), 'e.g. Windows 11');
    case 'agent_version':
      return text('Agent version', c.value, (v) => onChange({ ...c, value: v }), 'e.g. 1.4.0');
    case 'site':
      return (
        <Select
          multiple
          aria-label={`Sites (condition ${n})`}
          value={c.site_ids.map(String)}
          disabled={isDisabled}
          onChange={(e) =>
            onChange({ ...c, site_ids: [...e.target.selectedOptions].map((o) => Number(o.value)) })
          }
          className="h-20 min-w-0 flex-1"
        >
          {choices.sites.map((s) => (
            <option key={s.value} value={s.value}>
              {s.label}
            </option>
          ))}
        </Select>
      );
    case 'tag':
      return choices.tags.length > 0 ? (
        <Choice
          label={`Tag (condition ${n})`}
          value={String(c.tag_id)}
          options={[{ value: '0', label: 'Choose a tag' }, ...choices.tags]}
          onChange={(v) => onChange({ ...c, tag_id: Number(v) })}
          className="flex-1"
          isDisabled={isDisabled}
        />
      ) : (
        text(
          'Tag id',
          c.tag_id ? String(c.tag_id) : '',
          (v) => onChange({ ...c, tag_id: Number(v) || 0 }),
          'Tag id',
        )
      );
    case 'custom_field':
      return (
        <>
          {text('Field key', c.key, (v) => onChange({ ...c, key: v }), 'Field key', 'max-w-40')}
          {c.op !== 'empty' &&
            c.op !== 'not_empty' &&
            text('Value', c.value ?? '', (v) => onChange({ ...c, value: v }), 'Value')}
        </>
      );
    case 'software':
      return <SoftwareValue index={index} condition={c} onChange={onChange} isDisabled={isDisabled} />;
    case 'last_seen':
      return <LastSeenValue index={index} condition={c} onChange={onChange} isDisabled={isDisabled} />;
  }
}

type ValueProps<F extends GroupConditionInput['field']> = {
  index: number;
  condition: Extract<GroupConditionInput, { field: F }>;
  onChange: (c: GroupConditionInput) => void;
  isDisabled?: boolean;
};

/** Installed software: how the name matches, the name, and an optional version comparison. */
function SoftwareValue({ index, condition: c, onChange, isDisabled }: ValueProps<'software'>) {
  const n = index + 1;
  const text = (
    label: string,
    value: string,
    set: (v: string) => void,
    placeholder?: string,
    className?: string,
  ) => (
    <Input
      aria-label={`${label} (condition ${n})`}
      value={value}
      placeholder={placeholder}
      disabled={isDisabled}
      onChange={(e) => set(e.target.value)}
      className={cn('min-w-0 flex-1', className)}
    />
  );
  return (
    <>
      <Choice
        label={`Name match (condition ${n})`}
        value={c.name_match}
        options={[
          { value: 'contains', label: 'name contains' },
          { value: 'equals', label: 'name is' },
        ]}
        onChange={(v) => onChange({ ...c, name_match: v as typeof c.name_match })}
        isDisabled={isDisabled}
      />
      {text('Software name', c.name, (v) => onChange({ ...c, name: v }), 'e.g. 7-Zip')}
      {c.op === 'installed' || c.version_op ? (
        <>
          <Choice
            label={`Version comparison (condition ${n})`}
            value={c.version_op ?? ''}
            options={VERSION_OP_OPTIONS}
            onChange={(v) =>
              onChange({
                ...c,
                version_op: (v || undefined) as typeof c.version_op,
                version: v ? (c.version ?? '') : undefined,
              })
            }
            isDisabled={isDisabled}
          />
          {c.version_op &&
            text('Version', c.version ?? '', (v) => onChange({ ...c, version: v }), '1.10.2', 'max-w-28')}
        </>
      ) : null}
    </>
  );
}

/** Last seen: an amount of hours or days. */
function LastSeenValue({ index, condition: c, onChange, isDisabled }: ValueProps<'last_seen'>) {
  const n = index + 1;
  return (
    <>
      <Input
        type="number"
        min={1}
        aria-label={`Amount (condition ${n})`}
        value={c.amount}
        disabled={isDisabled}
        onChange={(e) => onChange({ ...c, amount: Math.max(1, Math.floor(Number(e.target.value) || 1)) })}
        className="w-24"
      />
      <Choice
        label={`Unit (condition ${n})`}
        value={c.unit}
        options={[
          { value: 'hours', label: 'hours' },
          { value: 'days', label: 'days' },
        ]}
        onChange={(v) => onChange({ ...c, unit: v as typeof c.unit })}
        isDisabled={isDisabled}
      />
      {c.op === 'older_than' && (
        <span className="self-center text-sm text-slate-500 dark:text-slate-400">ago</span>
      )}
    </>
  );
}

/** One condition of the builder: field, operator, values, remove. */
export function ConditionRow(props: Props) {
  const { index, condition: c, onChange, onRemove, isDisabled } = props;
  return (
    <div
      className="flex flex-wrap items-start gap-2 rounded-lg bg-slate-50 p-2.5 ring-1 ring-slate-200 ring-inset dark:bg-slate-900/60 dark:ring-slate-800"
      data-testid="group-condition"
    >
      <Choice
        label={`Field (condition ${index + 1})`}
        value={c.field}
        options={FIELD_OPTIONS}
        onChange={(v) => onChange(newCondition(v as GroupConditionField))}
        className="font-medium"
        isDisabled={isDisabled}
      />
      <Choice
        label={`Operator (condition ${index + 1})`}
        value={c.op}
        options={OPS[c.field]}
        onChange={(v) => onChange({ ...c, op: v } as GroupConditionInput)}
        isDisabled={isDisabled}
      />
      <ConditionValue {...props} />
      <IconButton
        label={`Remove condition ${index + 1}`}
        onClick={onRemove ?? undefined}
        disabled={isDisabled || onRemove === null}
        className="ml-auto"
      >
        <Trash2 className="size-4" />
      </IconButton>
    </div>
  );
}
