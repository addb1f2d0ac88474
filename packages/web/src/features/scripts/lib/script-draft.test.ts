import { describe, expect, it } from 'vitest';
import type { ScriptDetail } from '@outpost/contract/scripts';
import { bodyOf, draftOf } from './script-draft';

const script: ScriptDetail = {
  id: 1,
  name: 'Collect',
  description: '',
  category: 'Diagnostics',
  language: 'python',
  os: 'any',
  version: 3,
  params_count: 2,
  updated_at: '2026-11-27T10:00:00Z',
  updated_by_name: null,
  last_run_at: null,
  body: 'print(1)',
  timeout_seconds: 60,
  created_at: '2026-11-27T10:00:00Z',
  created_by_name: null,
  params: [
    {
      name: 'format',
      label: '',
      type: 'select',
      required: false,
      default: 'text',
      has_default: true,
      options: ['text', 'json'],
      min: null,
      max: null,
      pattern: null,
    },
    {
      name: 'token',
      label: '',
      type: 'secret',
      required: false,
      default: null,
      has_default: true,
      options: [],
      min: null,
      max: null,
      pattern: null,
    },
  ],
};

describe('the editor draft', () => {
  it('saves what it loaded, keeping a saved secret it never saw', () => {
    const body = bodyOf(draftOf(script));
    expect(body).toMatchObject({ name: 'Collect', language: 'python', os: 'any', timeout_seconds: 60 });
    expect(body.params).toEqual([
      {
        name: 'format',
        label: '',
        type: 'select',
        required: false,
        default: 'text',
        options: ['text', 'json'],
        min: null,
        max: null,
        pattern: null,
      },
      {
        name: 'token',
        label: '',
        type: 'secret',
        required: false,
        default: null,
        options: [],
        min: null,
        max: null,
        pattern: null,
        keep_secret: true,
      },
    ]);
  });

  it('replaces a saved secret with a typed one, or removes it when asked', () => {
    const draft = draftOf(script);
    const typed = bodyOf({
      ...draft,
      params: draft.params.map((p) => (p.type === 'secret' ? { ...p, default: 'new' } : p)),
    });
    expect(typed.params[1]).toMatchObject({ default: 'new' });
    expect(typed.params[1]).not.toHaveProperty('keep_secret');
    const cleared = bodyOf({ ...draft, params: draft.params.map((p) => ({ ...p, clearSaved: true })) });
    expect(cleared.params[1]).not.toHaveProperty('keep_secret');
  });
});
