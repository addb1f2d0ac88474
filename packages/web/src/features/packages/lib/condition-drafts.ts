import { conditionProblem } from '@outpost/contract/step-conditions';
import type { ConditionKind, StepCondition, StepConditionInput } from '@outpost/contract/step-conditions';
import type { Architecture } from '@outpost/contract/targets';

// docs/product/rollouts.md#step-conditions — a condition as the step editor holds it while it is
// typed (every field as text, whatever the kind), and the contract's condition it becomes.

export type ConditionDraft = {
  kind: ConditionKind;
  min: string;
  max: string;
  architectures: Architecture[];
  path: string;
  path_operator: 'exists' | 'not_exists';
  hive: string;
  key_path: string;
  value_name: string;
  registry_operator: 'exists' | 'equals';
  value: string;
  name: string;
  process_operator: 'running' | 'not_running';
  user: string;
  user_operator: 'logged_in' | 'not_logged_in';
  step_order: string;
  exit_operator: 'equals' | 'not_equals' | 'in';
  codes: string;
};

export function emptyConditionDraft(kind: ConditionKind, previousStep = 1): ConditionDraft {
  return {
    kind,
    min: '',
    max: '',
    architectures: ['x64'],
    path: '',
    path_operator: 'exists',
    hive: 'HKEY_LOCAL_MACHINE',
    key_path: '',
    value_name: '',
    registry_operator: 'exists',
    value: '',
    name: '',
    process_operator: 'running',
    user: '',
    user_operator: 'logged_in',
    step_order: String(Math.max(1, previousStep)),
    exit_operator: 'equals',
    codes: '0',
  };
}

/** "0, 3010" → [0, 3010]; a word that is no whole number stays NaN, so the contract names it. */
const codesOf = (text: string) =>
  text
    .split(/[\s,]+/)
    .filter((t) => t !== '')
    .map((t) => (/^-?\d+$/.test(t) ? Number(t) : Number.NaN));

export function conditionFromDraft(d: ConditionDraft): StepConditionInput {
  switch (d.kind) {
    case 'os_version':
      return {
        kind: 'os_version',
        ...(d.min.trim() && { min: d.min.trim() }),
        ...(d.max.trim() && { max: d.max.trim() }),
      };
    case 'architecture':
      return { kind: 'architecture', architectures: d.architectures };
    case 'path':
      return { kind: 'path', path: d.path.trim(), operator: d.path_operator };
    case 'registry':
      return {
        kind: 'registry',
        hive: d.hive as Extract<StepCondition, { kind: 'registry' }>['hive'],
        key_path: d.key_path.trim(),
        ...(d.value_name.trim() && { value_name: d.value_name.trim() }),
        operator: d.registry_operator,
        ...(d.registry_operator === 'equals' && { value: d.value }),
      };
    case 'process':
      return { kind: 'process', name: d.name.trim(), operator: d.process_operator };
    case 'user_logged_in':
      return {
        kind: 'user_logged_in',
        operator: d.user_operator,
        ...(d.user.trim() && { user: d.user.trim() }),
      };
    case 'exit_code':
      return {
        kind: 'exit_code',
        step_order: Number(d.step_order),
        operator: d.exit_operator,
        codes: codesOf(d.codes),
      };
  }
}

export function draftFromCondition(c: StepConditionInput): ConditionDraft {
  const d = emptyConditionDraft(c.kind);
  switch (c.kind) {
    case 'os_version':
      return { ...d, min: c.min ?? '', max: c.max ?? '' };
    case 'architecture':
      return { ...d, architectures: [...c.architectures] };
    case 'path':
      return { ...d, path: c.path, path_operator: c.operator };
    case 'registry':
      return {
        ...d,
        hive: c.hive,
        key_path: c.key_path,
        value_name: c.value_name ?? '',
        registry_operator: c.operator,
        value: c.value ?? '',
      };
    case 'process':
      return { ...d, name: c.name, process_operator: c.operator };
    case 'user_logged_in':
      return { ...d, user: c.user ?? '', user_operator: c.operator };
    case 'exit_code':
      return { ...d, step_order: String(c.step_order), exit_operator: c.operator, codes: c.codes.join(', ') };
  }
}

/** Each condition's problem in the contract's words, or null. */
export const conditionDraftProblems = (drafts: readonly ConditionDraft[]) =>
  drafts.map((d) => conditionProblem(conditionFromDraft(d)));
