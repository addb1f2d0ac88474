import { describe, expect, it } from 'vitest';
import { StepBody } from './packages';
import {
  MAX_CONDITIONS_PER_STEP,
  StepCondition,
  checkStepConditions,
  conditionMessages,
  conditionProblem,
  conditionsSummary,
  describeCondition,
} from './step-conditions';

// docs/product/rollouts.md#step-conditions: the conditions a step may carry and the messages a
// save answers with.

const step = (conditions: unknown) => ({
  step_name: 'Install app',
  step_type: 'CMD',
  step_details: { command: 'echo hi' },
  conditions,
});

describe('step conditions', () => {
  it('accepts one condition of every kind', () => {
    const all = [
      { kind: 'os_version', min: '10.0.19045', max: '10.0.22631' },
      { kind: 'architecture', architectures: ['x64', 'arm64'] },
      { kind: 'path', path: '%ProgramFiles%\\App\\app.exe', operator: 'exists' },
      {
        kind: 'registry',
        hive: 'HKEY_LOCAL_MACHINE',
        key_path: 'SOFTWARE\\App',
        value_name: 'Version',
        operator: 'equals',
        value: '2',
      },
      { kind: 'process', name: 'app.exe', operator: 'not_running' },
      { kind: 'user_logged_in', operator: 'not_logged_in' },
      { kind: 'exit_code', step_order: 1, operator: 'in', codes: [0, 3010] },
    ];
    const parsed = StepBody.parse(step(all));
    expect(parsed.conditions).toHaveLength(7);
    expect(parsed.conditions[3]).toMatchObject({ kind: 'registry', value: '2' });
  });

  it('a step without conditions has none', () => {
    expect(StepBody.parse(step(undefined)).conditions).toEqual([]);
  });

  it.each([
    [{ kind: 'os_version' }, conditionMessages.versionNeeded],
    [{ kind: 'os_version', min: '10.x' }, conditionMessages.versionFormat],
    [{ kind: 'os_version', min: '11', max: '10.0' }, conditionMessages.versionOrder],
    [{ kind: 'architecture', architectures: [] }, conditionMessages.architectureNeeded],
    [{ kind: 'path', path: '  ', operator: 'exists' }, conditionMessages.pathRequired],
    [
      { kind: 'registry', hive: 'HKEY_LOCAL_MACHINE', key_path: 'X', operator: 'equals' },
      conditionMessages.valueRequired,
    ],
    [
      { kind: 'registry', hive: 'HKEY_LOCAL_MACHINE', key_path: '', operator: 'exists' },
      conditionMessages.keyPathRequired,
    ],
    [{ kind: 'process', name: '', operator: 'running' }, conditionMessages.processRequired],
    [{ kind: 'exit_code', step_order: 0, operator: 'equals', codes: [0] }, conditionMessages.stepOrderRange],
    [{ kind: 'exit_code', step_order: 1, operator: 'equals', codes: [0, 1] }, conditionMessages.oneCode],
    [{ kind: 'exit_code', step_order: 1, operator: 'in', codes: [] }, conditionMessages.codesNeeded],
    [
      { kind: 'exit_code', step_order: 1, operator: 'in', codes: [Number.NaN] },
      conditionMessages.exitCodeFormat,
    ],
    [{ kind: 'weather', sunny: true }, conditionMessages.unknownKind],
  ])('refuses %j with its message', (condition, message) => {
    expect(conditionProblem(condition)).toBe(message);
  });

  it('names the step and the condition when a save is refused', () => {
    const result = StepBody.safeParse(
      step([
        { kind: 'path', path: 'C:\\x', operator: 'exists' },
        { kind: 'path', path: '', operator: 'exists' },
      ]),
    );
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      `Step "Install app", condition 2: ${conditionMessages.pathRequired}`,
    );
  });

  it(`allows at most ${MAX_CONDITIONS_PER_STEP} conditions`, () => {
    const many = Array.from({ length: MAX_CONDITIONS_PER_STEP + 1 }, () => ({
      kind: 'process',
      name: 'a.exe',
      operator: 'running',
    }));
    expect(checkStepConditions('S', many)).toEqual({
      success: false,
      error: `Step "S": ${conditionMessages.tooMany}`,
    });
    expect(checkStepConditions('S', many.slice(1)).success).toBe(true);
  });

  it('describes conditions and the collapsed summary', () => {
    expect(describeCondition({ kind: 'path', path: 'C:\\App\\app.exe', operator: 'not_exists' })).toBe(
      'C:\\App\\app.exe does not exist',
    );
    expect(describeCondition(StepCondition.parse({ kind: 'os_version', min: '10.0' }))).toBe(
      'OS version 10.0 or later',
    );
    expect(conditionsSummary(0)).toBe('Runs always');
    expect(conditionsSummary(2)).toBe('Runs when 2 conditions hold');
  });
});
