import { useEffect, useState } from 'react';
import { Link, useParams } from 'react-router';
import { ArrowLeft, FileDown, Play, Save, Trash2 } from 'lucide-react';
import type { ScriptDetail } from '@outpost/contract/scripts';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { Field, Input } from '../../../components/ui/form';
import { Spinner } from '../../../components/ui/spinner';
import { RunScriptDialog } from '../../../components/scripts/run-script-dialog';
import { errorMessage } from '../../../lib/api-client';
import { useScript } from '../../../lib/api/scripts';
import { useUser } from '../../../lib/auth';
import { downloadJson, exportScripts } from '../api/script-calls';
import { ParamsEditor } from '../components/params-editor';
import { ScriptFields } from '../components/script-fields';
import { VersionsPanel } from '../components/versions-panel';
import { draftOf, emptyDraft } from '../lib/script-draft';
import { useScriptEditorActions } from '../lib/use-script-editor-actions';
import type { ScriptDraft } from '../lib/script-draft';

// docs/product/scripts.md#the-editor: /scripts/new and /scripts/{id}.

export default function ScriptEditorPage() {
  const { id } = useParams();
  const scriptId = id && /^\d+$/.test(id) ? Number(id) : null;
  const script = useScript(scriptId);
  if (id !== undefined && scriptId === null) {
    return <Alert>Script not found</Alert>;
  }
  if (scriptId !== null && script.isPending) {
    return <Spinner className="size-6 text-slate-400" />;
  }
  if (scriptId !== null && script.isError) {
    return <Alert>{errorMessage(script.error, 'The script could not be loaded')}</Alert>;
  }
  return <Editor key={`${scriptId}-${script.data?.version ?? 0}`} script={script.data ?? null} />;
}

function Editor({ script }: { script: ScriptDetail | null }) {
  const user = useUser();
  const [draft, setDraft] = useState<ScriptDraft>(() => (script ? draftOf(script) : emptyDraft()));
  const [error, setError] = useState<string | null>(null);
  const [askDelete, setAskDelete] = useState(false);
  const [isRunOpen, setRunOpen] = useState(false);
  const readOnly = user.site_access_type === 'specific';
  const patch = (p: Partial<ScriptDraft>) => setDraft((d) => ({ ...d, ...p }));

  useEffect(() => {
    document.title = `${script ? script.name : 'New script'} · Outpost`;
  }, [script]);

  const { save, remove, isSaving, isDeleting } = useScriptEditorActions({
    script,
    draft,
    setError,
    onDeleteFailed: () => setAskDelete(false),
  });

  return (
    <>
      <Link
        to="/scripts"
        className="mb-3 inline-flex items-center gap-1 text-sm text-slate-500 hover:text-slate-700 dark:text-slate-400 dark:hover:text-slate-200"
      >
        <ArrowLeft className="size-4" aria-hidden /> Scripts
      </Link>
      <PageHeader
        title={script ? script.name : 'New script'}
        description={
          script
            ? `Version ${script.version} · updated by ${script.updated_by_name ?? 'Unknown'}`
            : 'Write a script; parameters reach it as OUTPOST_<NAME> environment variables.'
        }
        actions={
          script && (
            <>
              <Button icon={<Play className="size-4" />} onClick={() => setRunOpen(true)}>
                Run
              </Button>
              <Button
                icon={<FileDown className="size-4" />}
                onClick={() =>
                  void exportScripts([script.id]).then((doc) => downloadJson(doc, 'outpost-scripts.json'))
                }
              >
                Export
              </Button>
              {!readOnly && (
                <Button
                  variant="danger"
                  icon={<Trash2 className="size-4" />}
                  onClick={() => setAskDelete(true)}
                >
                  Delete
                </Button>
              )}
            </>
          )
        }
      />
      {readOnly && (
        <Alert tone="info" className="mb-4">
          Scripts are shared by all sites; only users with access to all sites can change them.
        </Alert>
      )}
      <div className={script ? 'grid gap-6 xl:grid-cols-[minmax(0,1fr)_24rem]' : 'grid max-w-5xl gap-6'}>
        <form
          noValidate
          className="min-w-0 space-y-6"
          onSubmit={(e) => {
            e.preventDefault();
            void save();
          }}
        >
          <ScriptFields draft={draft} onChange={patch} readOnly={readOnly} />
          <Card>
            <CardHeader title="Parameters" description="Typed values asked for when the script runs." />
            <div className="p-5">
              <ParamsEditor
                params={draft.params}
                onChange={(params) => patch({ params })}
                readOnly={readOnly}
              />
            </div>
          </Card>
          {!readOnly && (
            <Card className="space-y-4 p-5">
              {error && <Alert>{error}</Alert>}
              <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
                <div className="flex-1">
                  <Field
                    label="Change note"
                    htmlFor="script-change-note"
                    hint="Kept with the version this save makes."
                  >
                    <Input
                      id="script-change-note"
                      value={draft.changeNote}
                      maxLength={500}
                      onChange={(e) => patch({ changeNote: e.target.value })}
                    />
                  </Field>
                </div>
                <Button
                  type="submit"
                  variant="primary"
                  icon={<Save className="size-4" />}
                  isLoading={isSaving}
                >
                  {script ? 'Save version' : 'Create script'}
                </Button>
              </div>
            </Card>
          )}
        </form>
        {script && (
          <div className="min-w-0">
            <VersionsPanel scriptId={script.id} current={script.version} />
          </div>
        )}
      </div>
      <ConfirmDialog
        isOpen={askDelete}
        title="Delete script"
        message={script ? `Delete ${script.name} and all its versions? Runs already started are kept.` : ''}
        confirmLabel="Delete"
        isBusy={isDeleting}
        onConfirm={() => void remove()}
        onCancel={() => setAskDelete(false)}
      />
      <RunScriptDialog isOpen={isRunOpen} onClose={() => setRunOpen(false)} scriptId={script?.id} />
    </>
  );
}
