import { LANGUAGES_BY_OS, SCRIPT_LANGUAGE_LABELS, SCRIPT_LIMITS, SCRIPT_OS } from '@outpost/contract/scripts';
import type { ScriptLanguage, ScriptOs } from '@outpost/contract/scripts';
import { Card, CardHeader } from '../../../components/ui/card';
import { Field, Input, Select, Textarea } from '../../../components/ui/form';
import { useScriptCategories } from '../../../lib/api/scripts';
import type { ScriptDraft } from '../lib/script-draft';
import { OS_LABELS } from './script-columns';

// The editor's fields (docs/product/scripts.md#the-editor): name, description, category (free
// text with the library's categories as suggestions), target OS, the languages it offers, the
// default timeout, and the body in a monospace editor.

export function ScriptFields({
  draft,
  onChange,
  readOnly,
}: {
  draft: ScriptDraft;
  onChange: (patch: Partial<ScriptDraft>) => void;
  readOnly: boolean;
}) {
  const categories = useScriptCategories();
  const languages = LANGUAGES_BY_OS[draft.os];
  const setOs = (os: ScriptOs) =>
    onChange({
      os,
      ...(!LANGUAGES_BY_OS[os].includes(draft.language) && { language: LANGUAGES_BY_OS[os][0] }),
    });
  return (
    <>
      <Card>
        <CardHeader title="Details" />
        <fieldset disabled={readOnly} className="grid gap-4 p-5 sm:grid-cols-2">
          <Field label="Name" htmlFor="script-name" required>
            <Input
              id="script-name"
              value={draft.name}
              maxLength={SCRIPT_LIMITS.nameMax}
              onChange={(e) => onChange({ name: e.target.value })}
            />
          </Field>
          <Field label="Category" htmlFor="script-category" hint="Choose one or type a new one.">
            <Input
              id="script-category"
              list="script-categories"
              value={draft.category}
              maxLength={SCRIPT_LIMITS.categoryMax}
              onChange={(e) => onChange({ category: e.target.value })}
            />
            <datalist id="script-categories">
              {(categories.data ?? []).map((c) => (
                <option key={c.name} value={c.name} />
              ))}
            </datalist>
          </Field>
          <div className="sm:col-span-2">
            <Field label="Description" htmlFor="script-description">
              <Textarea
                id="script-description"
                rows={2}
                value={draft.description}
                maxLength={SCRIPT_LIMITS.descriptionMax}
                onChange={(e) => onChange({ description: e.target.value })}
              />
            </Field>
          </div>
          <Field label="Target OS" htmlFor="script-os">
            <Select id="script-os" value={draft.os} onChange={(e) => setOs(e.target.value as ScriptOs)}>
              {SCRIPT_OS.map((os) => (
                <option key={os} value={os}>
                  {OS_LABELS[os]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Language" htmlFor="script-language">
            <Select
              id="script-language"
              value={draft.language}
              onChange={(e) => onChange({ language: e.target.value as ScriptLanguage })}
            >
              {languages.map((l) => (
                <option key={l} value={l}>
                  {SCRIPT_LANGUAGE_LABELS[l]}
                </option>
              ))}
            </Select>
          </Field>
          <Field label="Default timeout (seconds)" htmlFor="script-timeout">
            <Input
              id="script-timeout"
              type="number"
              min={SCRIPT_LIMITS.timeoutMin}
              max={SCRIPT_LIMITS.timeoutMax}
              value={draft.timeout}
              onChange={(e) => onChange({ timeout: e.target.value })}
            />
          </Field>
        </fieldset>
      </Card>
      <Card>
        <CardHeader
          title="Script"
          description="Parameters are environment variables: $env:OUTPOST_NAME, %OUTPOST_NAME%, $OUTPOST_NAME."
        />
        <div className="p-5">
          <label htmlFor="script-body" className="sr-only">
            Script body
          </label>
          <textarea
            id="script-body"
            value={draft.body}
            readOnly={readOnly}
            spellCheck={false}
            autoCapitalize="off"
            autoCorrect="off"
            rows={18}
            wrap="off"
            onChange={(e) => onChange({ body: e.target.value })}
            className="block w-full resize-y rounded-md border-0 bg-slate-950 p-3 font-mono text-[13px] leading-5 text-slate-100 shadow-sm ring-1 ring-slate-300 ring-inset placeholder:text-slate-500 focus:ring-2 focus:ring-indigo-600 dark:ring-slate-700"
            placeholder="# your script"
          />
        </div>
      </Card>
    </>
  );
}
