import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Play } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { resolveRunValues } from '@outpost/contract/script-params';
import { SCRIPT_LIMITS } from '@outpost/contract/scripts';
import type { OfflineChoice, ScriptDetail } from '@outpost/contract/scripts';
import { errorMessage } from '../../lib/api-client';
import { useUser } from '../../lib/auth';
import { scriptRunPath, scriptsKey, startScriptRun, useScript } from '../../lib/api/scripts';
import { Alert } from '../ui/alert';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { Field, Input } from '../ui/form';
import { Spinner } from '../ui/spinner';
import { useToast } from '../ui/toast';
import { initialDrafts, RunParamsForm, runValues } from './run-params-form';
import type { ParamDraft } from './run-params-form';
import { RunTargetPicker } from './run-target-picker';
import type { RunTarget } from './run-target-picker';
import { ScriptPicker } from './script-picker';

// The one Run dialog (docs/product/scripts.md#running-a-script), opened from the library, the
// editor, the device list's selection and a device's page: the script (chosen here when not
// given), its parameters, the timeout and what offline devices do; then the run's results page.

export type RunScriptDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  /** the script to run; absent: chosen in the dialog */
  scriptId?: number;
  /** the devices to run on; absent: chosen in the dialog (devices or a group) */
  devices?: { id: number; hostname: string }[];
};

export function RunScriptDialog(props: RunScriptDialogProps) {
  if (!props.isOpen) {
    return null;
  }
  return <RunScriptDialogBody {...props} />;
}

function RunScriptDialogBody({ onClose, scriptId, devices }: RunScriptDialogProps) {
  const [chosenId, setChosenId] = useState<number | null>(scriptId ?? null);
  const script = useScript(chosenId);
  const [target, setTarget] = useState<RunTarget>({ kind: 'devices', devices: devices ?? [] });
  return (
    <Dialog
      isOpen
      onClose={onClose}
      size="lg"
      title={script.data ? `Run ${script.data.name}` : 'Run a script'}
      description="The script runs on each device with the values below as OUTPOST_<NAME> environment variables."
    >
      <div className="space-y-5">
        {scriptId === undefined && <ScriptPicker value={chosenId} onChange={setChosenId} />}
        {devices === undefined && (
          <RunTargetPicker target={target} onChange={setTarget} os={script.data?.os} />
        )}
        {chosenId !== null && script.isPending && <Spinner className="size-5 text-slate-400" />}
        {script.isError && <Alert>{errorMessage(script.error, 'The script could not be loaded')}</Alert>}
        {script.data && (
          <RunForm key={script.data.id} script={script.data} target={target} onClose={onClose} />
        )}
      </div>
    </Dialog>
  );
}

function targetCount(target: RunTarget): number {
  return target.kind === 'devices' ? target.devices.length : target.groupId === null ? 0 : target.members;
}

function RunForm({
  script,
  target,
  onClose,
}: {
  script: ScriptDetail;
  target: RunTarget;
  onClose: () => void;
}) {
  const navigate = useNavigate();
  const toast = useToast();
  const queryClient = useQueryClient();
  const user = useUser();
  const [drafts, setDrafts] = useState<Record<string, ParamDraft>>(() => initialDrafts(script.params));
  const [timeout, setTimeoutValue] = useState(String(script.timeout_seconds));
  const [offline, setOffline] = useState<OfflineChoice>('wait');
  const [paramError, setParamError] = useState<{ name: string; message: string } | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const [isBusy, setBusy] = useState(false);
  const count = targetCount(target);

  const submit = async () => {
    setFormError(null);
    const values = runValues(script.params, drafts);
    const { problem } = resolveRunValues(script.params, values);
    const missingSecret = script.params.find(
      (p) => p.type === 'secret' && p.required && !values[p.name] && !drafts[p.name]?.useSaved,
    );
    if (problem || missingSecret) {
      setParamError(
        problem
          ? { name: problem.path.replace(/^params\./, ''), message: problem.message }
          : {
              name: missingSecret!.name,
              message: `${missingSecret!.label || missingSecret!.name} is required`,
            },
      );
      return;
    }
    setParamError(null);
    const seconds = Number(timeout);
    if (
      !Number.isInteger(seconds) ||
      seconds < SCRIPT_LIMITS.timeoutMin ||
      seconds > SCRIPT_LIMITS.timeoutMax
    ) {
      setFormError(`The timeout is ${SCRIPT_LIMITS.timeoutMin} to ${SCRIPT_LIMITS.timeoutMax} seconds`);
      return;
    }
    if (count === 0) {
      setFormError(target.kind === 'group' ? 'Choose a group' : 'Choose at least one device');
      return;
    }
    setBusy(true);
    try {
      const created = await startScriptRun(script.id, {
        ...(target.kind === 'devices'
          ? { device_ids: target.devices.map((d) => d.id) }
          : { group_id: target.groupId ?? undefined }),
        params: values,
        timeout_seconds: seconds,
        offline,
      });
      void queryClient.invalidateQueries({ queryKey: scriptsKey(user.tenant_id) });
      toast.show({
        type: 'success',
        title: `Running ${script.name}`,
        message: `${created.devices} device${created.devices === 1 ? '' : 's'}${created.skipped ? `, ${created.skipped} offline skipped` : ''}`,
      });
      onClose();
      void navigate(scriptRunPath(created.job_id));
    } catch (err) {
      setFormError(errorMessage(err, 'The run could not be started'));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      noValidate
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      <RunParamsForm
        params={script.params}
        drafts={drafts}
        onChange={(name, draft) => setDrafts((d) => ({ ...d, [name]: draft }))}
        error={paramError}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Timeout (seconds)" htmlFor="run-timeout">
          <Input
            id="run-timeout"
            type="number"
            min={SCRIPT_LIMITS.timeoutMin}
            max={SCRIPT_LIMITS.timeoutMax}
            value={timeout}
            onChange={(e) => setTimeoutValue(e.target.value)}
          />
        </Field>
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Offline devices</legend>
          <div className="flex gap-4 pt-1.5 text-sm text-slate-700 dark:text-slate-200">
            {(['wait', 'skip'] as const).map((choice) => (
              <label key={choice} className="inline-flex items-center gap-2">
                <input
                  type="radio"
                  name="run-offline"
                  className="accent-indigo-600"
                  checked={offline === choice}
                  onChange={() => setOffline(choice)}
                />
                {choice === 'wait' ? 'Wait for them' : 'Skip them'}
              </label>
            ))}
          </div>
        </fieldset>
      </div>
      {formError && <Alert>{formError}</Alert>}
      <div className="flex flex-wrap items-center justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
        <p className="text-sm text-slate-600 dark:text-slate-300" data-testid="run-device-count">
          {target.kind === 'group' && target.groupId !== null
            ? `Runs on the ${count} device${count === 1 ? '' : 's'} of ${target.groupName}`
            : `Runs on ${count} device${count === 1 ? '' : 's'}`}
        </p>
        <div className="flex gap-2">
          <Button type="button" onClick={onClose} disabled={isBusy}>
            Cancel
          </Button>
          <Button type="submit" variant="primary" icon={<Play className="size-4" />} isLoading={isBusy}>
            Run script
          </Button>
        </div>
      </div>
    </form>
  );
}
