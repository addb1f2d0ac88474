import { useFieldArray } from 'react-hook-form';
import type { UseFormReturn } from 'react-hook-form';
import { Info, Plus, Trash2 } from 'lucide-react';
import { MAX_WAVES } from '@outpost/contract/rollouts';
import { Button, IconButton } from '../ui/button';
import { Input, Select } from '../ui/form';
import { useDeployGroups } from '../../lib/api/deploy-groups';
import type { RolloutFormHost } from './rollout-form';
import type { RolloutProblem } from './rollout-form';

// The waves of the deploy dialog's rollout section (docs/product/rollouts.md#the-rollout-section-of-the-deploy-dialog):
// cumulative percents (the last is 100) or ordered groups (the devices in none form a last wave).

type WavesProps = {
  form: UseFormReturn<RolloutFormHost>;
  formId: string;
  isDisabled: boolean;
  problems: RolloutProblem[];
};

const errorOf = (problems: RolloutProblem[], index: number) =>
  problems.find((p) => p.field === 'waves' && p.index === index)?.message;

function WaveNumber({ n }: { n: number }) {
  return (
    <span
      className="flex size-6 shrink-0 items-center justify-center rounded-full bg-indigo-50 text-xs font-semibold text-indigo-700 ring-1 ring-indigo-200 ring-inset dark:bg-indigo-500/10 dark:text-indigo-300 dark:ring-indigo-500/30"
      aria-hidden
    >
      {n}
    </span>
  );
}

function WaveRow({
  n,
  label,
  error,
  errorId,
  children,
  onRemove,
  canRemove,
  isDisabled,
}: {
  n: number;
  label: string;
  error?: string;
  errorId: string;
  children: React.ReactNode;
  onRemove?: () => void;
  canRemove: boolean;
  isDisabled: boolean;
}) {
  return (
    <li className="space-y-1" data-testid="rollout-wave">
      <div className="flex items-center gap-2.5">
        <WaveNumber n={n} />
        <span className="hidden w-14 shrink-0 text-sm font-medium text-slate-700 sm:inline dark:text-slate-200">
          {label}
        </span>
        <div className="min-w-0 flex-1">{children}</div>
        {onRemove ? (
          <IconButton label={`Remove wave ${n}`} onClick={onRemove} disabled={isDisabled || !canRemove}>
            <Trash2 className="size-4" />
          </IconButton>
        ) : (
          <span className="size-9 shrink-0" aria-hidden />
        )}
      </div>
      {error && (
        <p id={errorId} className="pl-8 sm:pl-[5.75rem] text-xs text-red-600 dark:text-red-400">
          {error}
        </p>
      )}
    </li>
  );
}

export function PercentWaves({ form, formId, isDisabled, problems }: WavesProps) {
  const { fields, insert, remove } = useFieldArray({ control: form.control, name: 'rollout.percents' });
  const add = () => {
    const values = form.getValues('rollout.percents') ?? [];
    const before = Number(values[values.length - 2]?.value ?? 0) || 0;
    const next = Math.min(99, Math.max(before + 1, Math.round((before + 100) / 2)));
    insert(fields.length - 1, { value: String(next) });
  };
  return (
    <div className="space-y-2">
      <ol className="space-y-2" aria-label="Waves">
        {fields.map((f, i) => {
          const isLast = i === fields.length - 1;
          const error = errorOf(problems, i);
          const id = `${formId}-wave-${i}`;
          return (
            <WaveRow
              key={f.id}
              n={i + 1}
              label="Wave"
              error={error}
              errorId={`${id}-error`}
              canRemove={fields.length > 2}
              isDisabled={isDisabled}
              onRemove={isLast ? undefined : () => remove(i)}
            >
              <div className="flex items-center gap-2">
                <Input
                  id={id}
                  type="number"
                  inputMode="numeric"
                  min={1}
                  max={100}
                  className="w-24 tabular-nums"
                  aria-label={`Wave ${i + 1}: share of devices in this and earlier waves (%)`}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-error` : undefined}
                  readOnly={isLast}
                  disabled={isDisabled}
                  {...form.register(`rollout.percents.${i}.value`)}
                />
                <span className="text-sm text-slate-500 dark:text-slate-400">
                  %
                  <span className="hidden sm:inline">
                    {isLast ? ' · every remaining device' : ' of the devices'}
                  </span>
                </span>
              </div>
            </WaveRow>
          );
        })}
      </ol>
      <Button
        size="sm"
        variant="ghost"
        icon={<Plus className="size-3.5" />}
        onClick={add}
        disabled={isDisabled || fields.length >= MAX_WAVES}
      >
        Add wave
      </Button>
    </div>
  );
}

export function GroupWaves({ form, formId, isDisabled, problems }: WavesProps) {
  const { fields, append, remove } = useFieldArray({ control: form.control, name: 'rollout.groups' });
  const groups = useDeployGroups(true);
  const list = groups.data?.data ?? [];
  return (
    <div className="space-y-2">
      <ol className="space-y-2" aria-label="Waves">
        {fields.map((f, i) => {
          const error = errorOf(problems, i);
          const id = `${formId}-group-wave-${i}`;
          return (
            <WaveRow
              key={f.id}
              n={i + 1}
              label="Wave"
              error={error}
              errorId={`${id}-error`}
              canRemove={fields.length > 2}
              isDisabled={isDisabled}
              onRemove={() => remove(i)}
            >
              <Select
                id={id}
                aria-label={`Wave ${i + 1} group`}
                aria-invalid={error ? true : undefined}
                aria-describedby={error ? `${id}-error` : undefined}
                disabled={isDisabled || groups.isPending}
                {...form.register(`rollout.groups.${i}.groupId`)}
              >
                <option value="">{groups.isPending ? 'Loading groups…' : 'Choose a group'}</option>
                {list.map((g) => (
                  <option key={g.id} value={String(g.id)}>
                    {g.name} · {g.member_count} device{g.member_count === 1 ? '' : 's'}
                  </option>
                ))}
              </Select>
            </WaveRow>
          );
        })}
        <li className="flex items-center gap-2.5 text-sm text-slate-500 dark:text-slate-400">
          <WaveNumber n={fields.length + 1} />
          <span className="rounded-md border border-dashed border-slate-300 px-3 py-1.5 dark:border-slate-700">
            Last wave: the job&apos;s devices that are in none of these groups
          </span>
        </li>
      </ol>
      {groups.isError && (
        <p className="text-xs text-red-600 dark:text-red-400">The groups could not be loaded.</p>
      )}
      <div className="flex flex-wrap items-center gap-3">
        <Button
          size="sm"
          variant="ghost"
          icon={<Plus className="size-3.5" />}
          onClick={() => append({ groupId: '' })}
          disabled={isDisabled || fields.length >= MAX_WAVES}
        >
          Add wave
        </Button>
        <p className="flex items-center gap-1.5 text-xs text-slate-500 dark:text-slate-400">
          <Info className="size-3.5 shrink-0" aria-hidden />A device in several groups joins the first wave
          whose group holds it.
        </p>
      </div>
    </div>
  );
}
