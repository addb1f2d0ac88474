import { describe, expect, it } from 'vitest';
import {
  languageOsProblem,
  paramDefinitionsProblem,
  paramValueProblem,
  resolveRunValues,
} from './script-params';
import { ScriptParamInput } from './scripts';
import type { ScriptParamView } from './scripts';

const def = (p: Record<string, unknown>) => ScriptParamInput.parse(p);
const view = (p: Partial<ScriptParamView> & Pick<ScriptParamView, 'name' | 'type'>): ScriptParamView => ({
  label: '',
  required: false,
  default: null,
  has_default: false,
  options: [],
  min: null,
  max: null,
  pattern: null,
  ...p,
});

describe('parameter definitions', () => {
  it('accepts sound definitions', () => {
    expect(
      paramDefinitionsProblem([
        def({ name: 'path', type: 'text', default: '/tmp', pattern: '/.*' }),
        def({ name: 'n', type: 'number', default: '5', min: 0, max: 5 }),
        def({ name: 'on', type: 'boolean', default: 'true' }),
        def({ name: 'pick', type: 'select', options: ['a', 'b'], default: 'b' }),
        def({ name: 'key', type: 'secret', default: 'anything at all' }),
      ]),
    ).toBeNull();
  });

  it.each([
    [
      [
        { name: 'a', type: 'text' },
        { name: 'A', type: 'number' },
      ],
      'params.1.name',
      'Two parameters are named A',
    ],
    [[{ name: 's', type: 'select' }], 'params.0.options', 's: a select parameter needs options'],
    [
      [{ name: 's', type: 'select', options: ['x', 'x'] }],
      'params.0.options',
      's: the options repeat a value',
    ],
    [
      [{ name: 's', type: 'select', options: ['x'], default: 'y' }],
      'params.0.default',
      'Default of s must be one of: x',
    ],
    [[{ name: 'n', type: 'number', min: 5, max: 1 }], 'params.0.min', 'n: the minimum is above the maximum'],
    [
      [{ name: 'n', type: 'number', default: '0', min: 1 }],
      'params.0.default',
      'Default of n must be at least 1',
    ],
    [[{ name: 'n', type: 'number', default: 'x' }], 'params.0.default', 'Default of n must be a number'],
    [
      [{ name: 'b', type: 'boolean', default: 'yes' }],
      'params.0.default',
      'Default of b must be true or false',
    ],
    [
      [{ name: 't', type: 'text', pattern: '[' }],
      'params.0.pattern',
      't: the pattern is not a valid regular expression',
    ],
    [
      [{ name: 't', label: 'Tag', type: 'text', pattern: '\\d+', default: '12a' }],
      'params.0.default',
      'Default of Tag does not match the pattern \\d+',
    ],
  ])('refuses %j', (params, path, message) => {
    expect(paramDefinitionsProblem(params.map(def))).toEqual({ path, message });
  });

  it('matches a pattern against the whole value', () => {
    const p = def({ name: 't', type: 'text', pattern: '[a-z]+' });
    expect(paramValueProblem(p, 'abc')).toBeNull();
    expect(paramValueProblem(p, 'abc1')).toMatch(/does not match/);
  });

  it('knows which languages an OS offers', () => {
    expect(languageOsProblem('cmd', 'windows')).toBeNull();
    expect(languageOsProblem('bash', 'windows')).toBe('Bash scripts cannot target Windows');
    expect(languageOsProblem('zsh', 'any')).toBe('zsh scripts cannot target any OS');
  });
});

describe('run values', () => {
  const params = [
    view({ name: 'svc', type: 'text', required: true }),
    view({ name: 'n', type: 'number', default: '2', min: 1, max: 3 }),
    view({ name: 'opt', type: 'text' }),
    view({ name: 'key', type: 'secret', required: true, has_default: true }),
  ];

  it('fills defaults and leaves out empty optional values and secrets', () => {
    expect(resolveRunValues(params, { svc: 'Spooler', key: 'x' })).toEqual({
      values: { svc: 'Spooler', n: '2' },
      problem: null,
    });
  });

  it('names the parameter of the first problem', () => {
    expect(resolveRunValues(params, {}).problem).toEqual({ path: 'params.svc', message: 'svc is required' });
    expect(resolveRunValues(params, { svc: 'a', n: '4' }).problem?.message).toBe('n must be at most 3');
    expect(resolveRunValues(params, { svc: 'a', zzz: '1' }).problem?.message).toBe(
      'The script has no parameter zzz',
    );
  });
});
