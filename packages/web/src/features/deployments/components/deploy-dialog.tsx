import { useCallback, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import type { UseFormReturn } from 'react-hook-form';
import { CalendarClock, Rocket } from 'lucide-react';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { defaultJobName } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { createDeployment } from '../api/create-deployment';
import type { DeployDeviceChoice, DeployPackageChoice } from '../../../lib/deploy-dialog';
import { createJobs, deployProblems, deploySummary, scheduledAt } from '../lib/deploy-form';
import type { DeployFormValues } from '../lib/deploy-form';
import { defaultRolloutValues } from '../../../components/rollout/rollout-form';
import type { RolloutFormHost } from '../../../components/rollout/rollout-form';
import { RolloutSection } from '../../../components/rollout/rollout-section';
import { rolloutFields, useRolloutRules } from '../../../components/rollout/use-rollout-rules';
import { DeployFields } from './deploy-fields';
import { ChangedPackagesNote, changedSinceDeploy } from './changed-packages-note';
import { DeployTargets } from './deploy-targets';
import { groupTargetSlots, useGroupTarget } from './deploy-group-picker';
import { useDeployRules } from './use-deploy-rules';
import { useDeployTargets } from './use-deploy-targets';

// docs/product/deployments.md#deploy-dialog, docs/product/devices.md#device-actions (preselection, job name, one job per package, outcomes), #deploy-dialog-rules
// (rules in order, disabled rules), docs/product/devices.md#device-detail (load and create errors), docs/product/deployments.md#limits (100 packages and devices).

export type DeployDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  initialPackages?: DeployPackageChoice[];
  initialDevices?: DeployDeviceChoice[];
  /** a device group to deploy to (the Groups page) */
  initialGroup?: { id: number; name: string };
  /** every job created, also after a partial failure (the shell watches them for notifications) */
  onCreated?: (jobs: DeploymentJob[]) => void;
  /** a full success: the dialog has reset and closed */
  onSuccess?: (jobs: DeploymentJob[]) => void;
  /** injectable for tests */
  create?: typeof createDeployment;
};

/** The form's values when it opens and after a full success: the rollout section off. */
const deployDefaults = (jobName: string): DeployFormValues => ({
  jobName,
  timing: 'now',
  date: '',
  time: '',
  description: '',
  rollout: defaultRolloutValues(),
});

/** One function for the dialog's whole life: the Dialog moves focus when its onClose changes. */
function useStableClose(isCreating: boolean, onClose: () => void) {
  const latest = useRef({ isCreating, onClose });
  useLayoutEffect(() => {
    latest.current = { isCreating, onClose };
  });
  return useCallback(() => {
    if (!latest.current.isCreating) {
      latest.current.onClose();
    }
  }, []);
}

// docs/product/deployments.md#deploy-dialog — the job name follows the chosen packages until the user types one.
function useJobNameFollowing(form: UseFormReturn<DeployFormValues>, names: string[]) {
  const packageNames = names.join('\u0000');
  useEffect(() => {
    if (!form.getFieldState('jobName').isDirty) {
      form.setValue('jobName', defaultJobName(packageNames ? packageNames.split('\u0000') : []));
    }
  }, [packageNames, form]);
}

/** The toast after a full success, with a link to the job (or to the list of jobs). */
function useCreatedToast() {
  const toast = useToast();
  const navigate = useNavigate();
  return (jobs: DeploymentJob[], isScheduled: boolean) => {
    const [first] = jobs;
    const isOne = jobs.length === 1 && first;
    toast.show({
      type: 'success',
      title: isScheduled ? 'Deployment scheduled' : 'Deployment created',
      message: isOne
        ? `${first.name} · ${first.total_devices} device(s)`
        : `${jobs.length} deployment jobs created`,
      action: {
        label: isOne ? 'View deployment' : 'View deployments',
        onClick: () => void navigate(isOne ? `/deployments/${first.id}` : '/deployments'),
      },
    });
  };
}

/** The summary, Cancel, and the submit button that says why it is disabled. */
function DeployFooter({
  summary,
  formId,
  isCreating,
  isLater,
  isSubmitDisabled,
  blocker,
  onCancel,
  onSubmitClick,
}: {
  summary: string;
  formId: string;
  isCreating: boolean;
  isLater: boolean;
  isSubmitDisabled: boolean;
  blocker: string | null;
  onCancel: () => void;
  onSubmitClick: () => void;
}) {
  const submitLabel = isLater ? 'Schedule Deployment' : 'Deploy Now';
  return (
    <>
      <p className="mr-auto text-sm text-slate-600 dark:text-slate-300" data-testid="deploy-summary">
        {summary}
      </p>
      <Button onClick={onCancel} disabled={isCreating}>
        Cancel
      </Button>
      <Button
        type="submit"
        form={formId}
        variant="primary"
        isLoading={isCreating}
        disabled={isSubmitDisabled}
        disabledReason={isCreating ? undefined : (blocker ?? undefined)}
        onClickCapture={onSubmitClick}
        icon={isLater ? <CalendarClock className="size-4" /> : <Rocket className="size-4" />}
      >
        {submitLabel}
      </Button>
    </>
  );
}

/** The dialog's rules, then the rollout section's; the first broken one is said on the submit button. */
function useDialogRules(args: Parameters<typeof useDeployRules>[0], isCreating: boolean) {
  const rules = useDeployRules(args);
  const rolloutRules = useRolloutRules(args.values.rollout, rules.showRules);
  const blocker = rules.problems[0]?.message ?? rolloutRules.problems[0]?.message ?? null;
  // docs/product/deployments.md#deploy-dialog-rules — submit is disabled while creating, with no package, no device or no name;
  // also with a schedule in the past. Offline devices are said on sending.
  const isSubmitDisabled =
    isCreating || rules.problems.some((p) => p.message !== messages.devicesOffline) || rolloutRules.isBroken;
  return { rules, rolloutRules, blocker, isSubmitDisabled };
}

export default function DeployDialog({
  isOpen,
  onClose,
  initialPackages = [],
  initialDevices = [],
  initialGroup,
  onCreated,
  onSuccess,
  create = createDeployment,
}: DeployDialogProps) {
  const showCreated = useCreatedToast();
  const formId = useId();
  const targets = useDeployTargets({ isOpen, initialPackages, initialDevices });
  const { options, packages, packageIds, setPackageIds, deviceIds, setDeviceIds } = targets;
  const { selectedPackages, selectedDevices, byTarget } = targets;
  const groupTarget = useGroupTarget(initialGroup);
  const [isCreating, setIsCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const defaultName = defaultJobName(initialPackages.map((p) => p.name));
  const form = useForm<DeployFormValues>({ defaultValues: deployDefaults(defaultName) });
  const values = useWatch({ control: form.control }) as DeployFormValues;
  useJobNameFollowing(
    form,
    selectedPackages.map((p) => p.name),
  );
  const { rules, rolloutRules, blocker, isSubmitDisabled } = useDialogRules(
    { form, values, packageCount: packageIds.length, devices: selectedDevices, group: groupTarget.rule },
    isCreating,
  );
  const { shownError, touch } = rules;
  const isLater = values.timing === 'later';
  const close = useStableClose(isCreating, onClose);

  const submit = form.handleSubmit(async (v) => {
    setError(null);
    const [rule] = deployProblems({
      packageCount: packageIds.length,
      devices: selectedDevices,
      group: groupTarget.rule,
      jobName: v.jobName,
      schedule: v,
    });
    if (rule || rolloutRules.isBroken) {
      // the rules show next to their fields (and the first on the button)
      rolloutRules.showRules();
      return;
    }
    setIsCreating(true);
    const outcome = await createJobs(create, selectedPackages, {
      deviceIds,
      groupId: groupTarget.rule?.groupId ?? null,
      jobName: v.jobName,
      description: v.description,
      scheduledAt: scheduledAt(v),
      ...rolloutFields(v.rollout),
    });
    setIsCreating(false);
    if (outcome.kind !== 'failure' && outcome.jobs.length > 0) {
      onCreated?.(outcome.jobs);
    }
    if (outcome.kind === 'failure') {
      setError(outcome.message);
      return;
    }
    if (outcome.kind === 'partial') {
      // What was created stays created: only the packages that failed remain to deploy again.
      setPackageIds(outcome.failedPackageIds);
      setError(outcome.message);
      return;
    }
    // docs/product/deployments.md#deploy-dialog — full success resets the dialog, closes it and calls the success callback.
    form.reset(deployDefaults(''));
    setPackageIds([]);
    setDeviceIds([]);
    onClose();
    onSuccess?.(outcome.jobs);
    showCreated(outcome.jobs, Boolean(scheduledAt(v)));
  });

  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      size="xl"
      isDismissDisabled={isCreating}
      title="Deploy Package"
      description="Choose what to install and where, then deploy now or schedule it."
      footer={
        <DeployFooter
          summary={deploySummary(deviceIds.length, values, groupTarget.summaryName)}
          formId={formId}
          isCreating={isCreating}
          isLater={isLater}
          isSubmitDisabled={isSubmitDisabled}
          blocker={blocker}
          onCancel={close}
          onSubmitClick={rolloutRules.showRules}
        />
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        {options.isError && <Alert>{messages.dialogLoad}</Alert>}
        {error && <Alert>{error}</Alert>}
        <ChangedPackagesNote changes={changedSinceDeploy(packageIds, packages)} />
        <DeployTargets
          packages={packages}
          devices={byTarget.offered}
          leftOutNote={byTarget.note}
          packageIds={packageIds}
          deviceIds={deviceIds}
          onPackagesChange={(ids) => {
            setPackageIds(ids);
            touch('packages');
          }}
          onDevicesChange={(ids) => {
            setDeviceIds(ids);
            touch('devices');
          }}
          packagesError={shownError('packages')}
          devicesError={shownError('devices')}
          isLoading={options.isPending && isOpen}
          isDisabled={isCreating}
          {...groupTargetSlots({
            state: groupTarget,
            onTouched: () => touch('devices'),
            error: shownError('devices'),
            isDisabled: isCreating,
          })}
        />

        <DeployFields
          form={form}
          values={values}
          formId={formId}
          isDisabled={isCreating}
          jobNameError={shownError('jobName')}
          scheduleError={shownError('schedule')}
        />
        <RolloutSection
          // the section reads and writes only `rollout.*`, which the deploy form holds as its own
          form={form as unknown as UseFormReturn<RolloutFormHost>}
          values={values.rollout}
          formId={formId}
          isDisabled={isCreating}
          problems={rolloutRules.shown}
        />
      </form>
    </Dialog>
  );
}
