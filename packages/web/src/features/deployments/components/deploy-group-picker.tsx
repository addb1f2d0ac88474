import { useId, useState } from 'react';
import type { ReactNode } from 'react';
import { Boxes, Info } from 'lucide-react';
import { deploymentGroupMessages } from '@outpost/contract/groups';
import { Badge } from '../../../components/ui/badge';
import { Field, Select } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { useDeployGroups } from '../../../lib/api/deploy-groups';

export type DeployTargetKind = 'devices' | 'group';

/** "Deploy to: Devices | Group": which of the two pickers the dialog shows. */
export function DeployTargetSwitch({
  value,
  onChange,
  isDisabled,
}: {
  value: DeployTargetKind;
  onChange: (value: DeployTargetKind) => void;
  isDisabled: boolean;
}) {
  const options: [DeployTargetKind, string][] = [
    ['devices', 'Devices'],
    ['group', 'Group'],
  ];
  return (
    <div className="flex items-center gap-2 whitespace-nowrap">
      <span id="deploy-target-label" className="text-xs font-medium text-slate-500 dark:text-slate-400">
        Deploy to
      </span>
      <div
        role="radiogroup"
        aria-labelledby="deploy-target-label"
        className="inline-flex rounded-md bg-slate-100 p-0.5 dark:bg-slate-800"
      >
        {options.map(([key, label]) => (
          <button
            key={key}
            type="button"
            role="radio"
            aria-checked={value === key}
            disabled={isDisabled}
            onClick={() => onChange(key)}
            className={
              value === key
                ? 'rounded px-2 py-0.5 text-xs font-medium text-slate-900 shadow-sm bg-white dark:bg-slate-950 dark:text-white'
                : 'rounded px-2 py-0.5 text-xs font-medium text-slate-600 hover:text-slate-900 dark:text-slate-300 dark:hover:text-white'
            }
          >
            {label}
          </button>
        ))}
      </div>
    </div>
  );
}

/**
 * The deploy dialog's group choice (docs/product/device-sets.md#groups "Deploying to a group"):
 * one group; its online members the user may see at creation are the job's devices.
 */
export function DeployGroupPicker({
  groupId,
  onChange,
  error,
  isDisabled,
  headerExtra,
}: {
  headerExtra?: ReactNode;
  groupId: number | null;
  onChange: (group: { id: number; name: string } | null) => void;
  error: string | undefined;
  isDisabled: boolean;
}) {
  const id = useId();
  const groups = useDeployGroups(true);
  const list = groups.data?.data ?? [];
  const chosen = list.find((g) => g.id === groupId);
  return (
    <section className="space-y-3" aria-label="Device group">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <h3 className="text-sm font-semibold text-slate-900 dark:text-white">Device group</h3>
        {headerExtra}
      </div>
      <Field
        label="Group"
        htmlFor={id}
        error={error}
        hint={groups.isError ? 'The groups could not be loaded.' : undefined}
      >
        <div className="flex items-center gap-2">
          <Select
            id={id}
            value={groupId ?? ''}
            disabled={isDisabled || groups.isPending}
            onChange={(e) => {
              const g = list.find((x) => x.id === Number(e.target.value));
              onChange(g ? { id: g.id, name: g.name } : null);
            }}
          >
            <option value="">{groups.isPending ? 'Loading groups…' : 'Choose a group'}</option>
            {list.map((g) => (
              <option key={g.id} value={g.id}>
                {g.name} · {g.kind === 'dynamic' ? 'Dynamic' : 'Static'} · {g.member_count} device
                {g.member_count === 1 ? '' : 's'}
              </option>
            ))}
          </Select>
          {groups.isPending && <Spinner label="Loading groups" />}
        </div>
      </Field>
      {chosen && (
        <p className="flex items-center gap-2 text-sm text-slate-600 dark:text-slate-300">
          <Boxes className="size-4 text-slate-400" aria-hidden />
          <span className="font-medium text-slate-900 dark:text-white">{chosen.name}</span>
          <Badge tone={chosen.kind === 'dynamic' ? 'indigo' : 'gray'}>
            {chosen.kind === 'dynamic' ? 'Dynamic' : 'Static'}
          </Badge>
          <span>
            {chosen.member_count} member{chosen.member_count === 1 ? '' : 's'}
          </span>
        </p>
      )}
      <p className="flex gap-2 text-xs text-slate-500 dark:text-slate-400" data-testid="deploy-group-note">
        <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        <span>
          {deploymentGroupMessages.snapshotNote} Members that are offline when the deployment is created, or
          that do not run the package's operating system, are skipped.
        </span>
      </p>
    </section>
  );
}

export type GroupChoice = { id: number; name: string };

/** Whether the dialog deploys to chosen devices or a group, the group, and the rule it adds. */
export function useGroupTarget(initialGroup: GroupChoice | undefined) {
  const [target, setTarget] = useState<DeployTargetKind>(initialGroup ? 'group' : 'devices');
  const [group, setGroup] = useState<GroupChoice | null>(initialGroup ?? null);
  const rule = target === 'group' ? { groupId: group?.id ?? null } : undefined;
  const summaryName = target === 'group' ? (group?.name ?? '…') : null;
  return { target, setTarget, group, setGroup, rule, summaryName };
}

/** The deploy targets' switch and, while deploying to a group, the group picker. */
export function groupTargetSlots({
  state,
  onTouched,
  error,
  isDisabled,
}: {
  state: ReturnType<typeof useGroupTarget>;
  onTouched: () => void;
  error: string | undefined;
  isDisabled: boolean;
}) {
  const switchNode = (
    <DeployTargetSwitch
      value={state.target}
      isDisabled={isDisabled}
      onChange={(next) => {
        state.setTarget(next);
        onTouched();
      }}
    />
  );
  return {
    targetSwitch: switchNode,
    groupPicker:
      state.target === 'group' ? (
        <DeployGroupPicker
          headerExtra={switchNode}
          groupId={state.group?.id ?? null}
          onChange={(next) => {
            state.setGroup(next);
            onTouched();
          }}
          error={error}
          isDisabled={isDisabled}
        />
      ) : undefined,
  };
}
