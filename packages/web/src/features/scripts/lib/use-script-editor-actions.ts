import { useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { bodyBytes, languageOsProblem, paramDefinitionsProblem } from '@outpost/contract/script-params';
import { ScriptInput, SCRIPT_LIMITS } from '@outpost/contract/scripts';
import type { ScriptDetail } from '@outpost/contract/scripts';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { scriptsKey } from '../../../lib/api/scripts';
import { useUser } from '../../../lib/auth';
import { createScript, deleteScript, updateScript } from '../api/script-calls';
import { bodyOf } from './script-draft';
import type { ScriptDraft } from './script-draft';

// The editor's save and delete (docs/product/scripts.md#the-editor).

/** The first problem the editor can tell before saving, or null. */
function draftProblem(draft: ScriptDraft): string | null {
  const parsed = ScriptInput.safeParse(bodyOf(draft));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    return path === 'timeout_seconds'
      ? `The timeout is ${SCRIPT_LIMITS.timeoutMin} to ${SCRIPT_LIMITS.timeoutMax} seconds`
      : `${issue?.message ?? 'Invalid value'}${path.startsWith('params') ? ` (${path})` : ''}`;
  }
  if (bodyBytes(parsed.data.body) > SCRIPT_LIMITS.bodyMaxBytes) {
    return `The script is larger than ${SCRIPT_LIMITS.bodyMaxBytes / 1024} KiB`;
  }
  return (
    languageOsProblem(parsed.data.language, parsed.data.os) ??
    paramDefinitionsProblem(parsed.data.params)?.message ??
    null
  );
}

export function useScriptEditorActions({
  script,
  draft,
  setError,
  onDeleteFailed,
}: {
  script: ScriptDetail | null;
  draft: ScriptDraft;
  setError: (message: string | null) => void;
  onDeleteFailed: () => void;
}) {
  const navigate = useNavigate();
  const toast = useToast();
  const user = useUser();
  const queryClient = useQueryClient();
  const [isSaving, setSaving] = useState(false);
  const [isDeleting, setDeleting] = useState(false);

  const save = async () => {
    const problem = draftProblem(draft);
    setError(problem);
    if (problem) {
      return;
    }
    setSaving(true);
    try {
      const saved = script ? await updateScript(script.id, bodyOf(draft)) : await createScript(bodyOf(draft));
      await queryClient.invalidateQueries({ queryKey: scriptsKey(user.tenant_id) });
      toast.show({ type: 'success', title: script ? `Saved version ${saved.version}` : 'Script created' });
      if (!script) {
        void navigate(`/scripts/${saved.id}`, { replace: true });
      }
    } catch (err) {
      setError(errorMessage(err, 'The script could not be saved'));
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    if (!script) {
      return;
    }
    setDeleting(true);
    try {
      await deleteScript(script.id);
      await queryClient.invalidateQueries({ queryKey: scriptsKey(user.tenant_id) });
      toast.show({ type: 'success', title: `Deleted ${script.name}` });
      void navigate('/scripts');
    } catch (err) {
      setError(errorMessage(err, 'The script could not be deleted'));
      onDeleteFailed();
    } finally {
      setDeleting(false);
    }
  };

  return { save, remove, isSaving, isDeleting };
}
