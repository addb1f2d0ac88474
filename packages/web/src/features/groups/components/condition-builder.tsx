import { Plus } from 'lucide-react';
import type { GroupFilterInput } from '@outpost/contract/groups';
import { MAX_GROUP_CONDITIONS } from '@outpost/contract/groups';
import { Button } from '../../../components/ui/button';
import { Select } from '../../../components/ui/form';
import { newCondition } from '../lib/conditions';
import { ConditionRow } from './condition-row';
import type { ConditionChoices } from './condition-row';

/** The dynamic group's filter: match all or any of up to 20 conditions. */
export function ConditionBuilder({
  filter,
  onChange,
  choices,
  isDisabled,
}: {
  filter: GroupFilterInput;
  onChange: (filter: GroupFilterInput) => void;
  choices: ConditionChoices;
  isDisabled?: boolean;
}) {
  const { conditions } = filter;
  return (
    <fieldset className="space-y-2.5">
      <legend className="mb-2 flex flex-wrap items-center gap-2 text-sm text-slate-700 dark:text-slate-200">
        <span>Devices that match</span>
        <Select
          aria-label="Match"
          value={filter.match}
          disabled={isDisabled}
          onChange={(e) => onChange({ ...filter, match: e.target.value as GroupFilterInput['match'] })}
          className="w-auto"
        >
          <option value="all">all</option>
          <option value="any">any</option>
        </Select>
        <span>of these conditions</span>
      </legend>
      {conditions.map((c, i) => (
        <ConditionRow
          key={i}
          index={i}
          condition={c}
          choices={choices}
          isDisabled={isDisabled}
          onChange={(next) =>
            onChange({ ...filter, conditions: conditions.map((x, j) => (j === i ? next : x)) })
          }
          onRemove={
            conditions.length > 1
              ? () => onChange({ ...filter, conditions: conditions.filter((_, j) => j !== i) })
              : null
          }
        />
      ))}
      <Button
        size="sm"
        icon={<Plus className="size-4" />}
        disabled={isDisabled || conditions.length >= MAX_GROUP_CONDITIONS}
        onClick={() => onChange({ ...filter, conditions: [...conditions, newCondition('os_type')] })}
      >
        Add condition
      </Button>
    </fieldset>
  );
}
