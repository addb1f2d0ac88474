import { SCRIPT_LIMITS } from '@outpost/contract/scripts';
import type { ParamType, ScriptDetail, ScriptLanguage, ScriptOs } from '@outpost/contract/scripts';
import type { ScriptSaveBody } from '../api/script-calls';

// The editor's form state (docs/product/scripts.md#the-editor) and the body it saves. A saved
// secret's value never comes back: the draft knows only that one is saved (`hasSaved`) and keeps
// it unless a new value is typed or it is cleared.

export type ParamDraft = {
  key: string;
  name: string;
  label: string;
  type: ParamType;
  required: boolean;
  default: string;
  options: string;
  min: string;
  max: string;
  pattern: string;
  hasSaved: boolean;
  clearSaved: boolean;
};

export type ScriptDraft = {
  name: string;
  description: string;
  category: string;
  language: ScriptLanguage;
  os: ScriptOs;
  body: string;
  timeout: string;
  params: ParamDraft[];
  changeNote: string;
};

export const emptyDraft = (): ScriptDraft => ({
  name: '',
  description: '',
  category: '',
  language: 'powershell',
  os: 'windows',
  body: '',
  timeout: String(SCRIPT_LIMITS.timeoutDefault),
  params: [],
  changeNote: '',
});

export const newParam = (): ParamDraft => ({
  key: crypto.randomUUID(),
  name: '',
  label: '',
  type: 'text',
  required: false,
  default: '',
  options: '',
  min: '',
  max: '',
  pattern: '',
  hasSaved: false,
  clearSaved: false,
});

export function draftOf(s: ScriptDetail): ScriptDraft {
  return {
    name: s.name,
    description: s.description,
    category: s.category,
    language: s.language,
    os: s.os,
    body: s.body,
    timeout: String(s.timeout_seconds),
    changeNote: '',
    params: s.params.map((p) => ({
      key: crypto.randomUUID(),
      name: p.name,
      label: p.label,
      type: p.type,
      required: p.required,
      default: p.default ?? '',
      options: p.options.join('\n'),
      min: p.min === null ? '' : String(p.min),
      max: p.max === null ? '' : String(p.max),
      pattern: p.pattern ?? '',
      hasSaved: p.type === 'secret' && p.has_default,
      clearSaved: false,
    })),
  };
}

const numberOrNull = (text: string) => (text.trim() === '' ? null : Number(text));

export function bodyOf(d: ScriptDraft): ScriptSaveBody {
  return {
    name: d.name.trim(),
    description: d.description.trim(),
    category: d.category.trim(),
    language: d.language,
    os: d.os,
    body: d.body,
    timeout_seconds: Number(d.timeout),
    ...(d.changeNote.trim() && { change_note: d.changeNote.trim() }),
    params: d.params.map((p) => ({
      name: p.name.trim(),
      label: p.label.trim(),
      type: p.type,
      required: p.required,
      default: p.default === '' ? null : p.default,
      options:
        p.type === 'select'
          ? p.options
              .split('\n')
              .map((o) => o.trim())
              .filter(Boolean)
          : [],
      min: p.type === 'number' ? numberOrNull(p.min) : null,
      max: p.type === 'number' ? numberOrNull(p.max) : null,
      pattern: p.type === 'text' && p.pattern.trim() ? p.pattern.trim() : null,
      ...(p.type === 'secret' && p.hasSaved && !p.clearSaved && p.default === '' && { keep_secret: true }),
    })),
  };
}
