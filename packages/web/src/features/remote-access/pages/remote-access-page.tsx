import { useState } from 'react';
import { FolderSync } from 'lucide-react';
import type { RemoteAccessView } from '@outpost/contract/remote-access';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { PageHeader } from '../../../components/ui/card';
import { Spinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { useRemoteAccess, useSaveRemoteAccess } from '../../../lib/api/remote-access';
import { SettingsSections } from '../components/settings-sections';
import { fromForm, toForm } from '../lib/settings-form';
import type { FormErrors, SettingsForm } from '../lib/settings-form';

// docs/product/remote-access.md#settings — Remote access (/remote-access): what the organisation
// allows of the remote terminal and file transfer. Every member reads it; administrators of all
// sites change it (the others see it read-only).

const TITLE = 'Remote Access';
const DESCRIPTION =
  'Who may open a terminal on your devices or move files to and from them, and the limits of both.';

function SettingsEditor({ view }: { view: RemoteAccessView }) {
  const save = useSaveRemoteAccess();
  const toast = useToast();
  const [form, setForm] = useState<SettingsForm>(() => toForm(view));
  const [errors, setErrors] = useState<FormErrors>({});
  const readOnly = !view.can_edit;
  const set = <K extends keyof SettingsForm>(key: K, value: SettingsForm[K]) =>
    setForm((f) => ({ ...f, [key]: value }));

  async function submit() {
    const result = fromForm(form);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    try {
      setForm(toForm(await save.mutateAsync(result.update)));
      toast.show({
        type: 'success',
        title: 'Settings saved',
        message: 'Devices are told the new settings now.',
      });
    } catch (err) {
      toast.show({ type: 'error', title: 'Could not save the settings', message: errorMessage(err, '') });
    }
  }

  return (
    <>
      <PageHeader
        title={TITLE}
        description={DESCRIPTION}
        actions={
          !readOnly && (
            <Button variant="primary" onClick={() => void submit()} isLoading={save.isPending}>
              Save changes
            </Button>
          )
        }
      />
      <div className="space-y-6">
        {readOnly && <Alert tone="info">Only administrators of all sites can change these settings.</Alert>}
        <SettingsSections form={form} errors={errors} readOnly={readOnly} set={set} />
        <p className="flex items-center gap-2 text-xs text-slate-500 dark:text-slate-400">
          <FolderSync className="size-3.5" aria-hidden />
          Every terminal session and file transfer is recorded in the audit log.
        </p>
      </div>
    </>
  );
}

export default function RemoteAccessPage() {
  const query = useRemoteAccess();
  if (query.data) {
    return <SettingsEditor view={query.data} />;
  }
  return (
    <>
      <PageHeader title={TITLE} description={DESCRIPTION} />
      {query.isError ? (
        <ErrorState
          title="Could not load the settings"
          message={errorMessage(query.error, '')}
          onRetry={() => void query.refetch()}
        />
      ) : (
        <div className="flex justify-center py-16">
          <Spinner className="size-6 text-indigo-600 dark:text-indigo-400" label="Loading" />
        </div>
      )}
    </>
  );
}
