import { useCallback, useEffect, useId, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { CalendarClock, Rocket } from 'lucide-react';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { defaultJobName } from '@outpost/contract/deployments';
import type { DeviceStatus } from '@outpost/contract/devices';
import { isDeviceActionable } from '@outpost/contract/devices';
import { DEPLOY_DIALOG_LOAD_LIMIT } from '@outpost/contract/limits';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { StatusBadge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Dialog } from '../../../components/ui/dialog';
import { useToast } from '../../../components/ui/toast';
import { createDeployment } from '../api/create-deployment';
import type { DeployDeviceChoice, DeployPackageChoice } from '../../../lib/deploy-dialog';
import { useLiveMessages } from '../../../lib/socket';
import { useDeployOptions } from '../api/get-deploy-options';
import { createJobs, deployProblems, deploySummary, scheduledAt } from '../lib/deploy-form';
import type { DeployField, DeployFormValues } from '../lib/deploy-form';
import { devicesForPackages } from '../lib/device-targets';
import { DeployFields } from './deploy-fields';
import { ChangedPackagesNote, changedSinceDeploy } from './changed-packages-note';
import type { PackageChangeFacts } from './changed-packages-note';
import { PickList } from './pick-list';
import type { PickItem } from './pick-list';

// spec: core §2 Deploy dialog, §4 (preselection, job name, one job per package, outcomes), §5
// (rules in order, disabled rules), §8 (load and create errors), §9 (100 packages and devices).

export type DeployDialogProps = {
  isOpen: boolean;
  onClose: () => void;
  initialPackages?: DeployPackageChoice[];
  initialDevices?: DeployDeviceChoice[];
  /** every job created, also after a partial failure (the shell watches them for notifications) */
  onCreated?: (jobs: DeploymentJob[]) => void;
  /** a full success: the dialog has reset and closed */
  onSuccess?: (jobs: DeploymentJob[]) => void;
  /** injectable for tests */
  create?: typeof createDeployment;
};

type DeviceInfo = DeployDeviceChoice;

export default function DeployDialog({
  isOpen,
  onClose,
  initialPackages = [],
  initialDevices = [],
  onCreated,
  onSuccess,
  create = createDeployment,
}: DeployDialogProps) {
  const toast = useToast();
  const navigate = useNavigate();
  const formId = useId();
  const options = useDeployOptions(isOpen);
  const initialPackageIds = initialPackages.map((p) => p.id);
  const initialDeviceIds = initialDevices.map((d) => d.id);
  const [packageIds, setPackageIds] = useState<number[]>(initialPackageIds);
  const [deviceIds, setDeviceIds] = useState<number[]>(initialDeviceIds);
  const [liveStatus, setLiveStatus] = useState<ReadonlyMap<number, DeviceStatus>>(new Map());
  const [isCreating, setIsCreating] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [showRules, setShowRules] = useState(false);
  const [touched, setTouched] = useState<ReadonlySet<DeployField>>(new Set());
  const touch = (field: DeployField) => setTouched((t) => new Set(t).add(field));

  const packages = useMemo(() => {
    const map = new Map<number, DeployPackageChoice & { detail?: string } & PackageChangeFacts>();
    for (const p of initialPackages) {
      map.set(p.id, p);
    }
    for (const p of options.data?.packages ?? []) {
      map.set(p.id, {
        id: p.id,
        name: p.name,
        target_os: p.target_os,
        architecture: p.architecture,
        updated_at: p.updated_at,
        updated_by_name: p.updated_by_name,
        is_changed_since_deploy: p.is_changed_since_deploy,
        detail: `v${p.package_version} · ${p.step_count} step${p.step_count === 1 ? '' : 's'}${p.is_template ? ' · Template' : ''}`,
      });
    }
    return map;
  }, [initialPackages, options.data]);

  const devices = useMemo(() => {
    const map = new Map<number, DeviceInfo>();
    for (const d of initialDevices) {
      map.set(d.id, d);
    }
    // spec: core §5 — only devices online or logged in are offered.
    for (const d of options.data?.devices ?? []) {
      if (isDeviceActionable(d.status)) {
        const { id, hostname, ip_address, status, os_type, architecture } = d;
        map.set(id, { id, hostname, ip_address, status, os_type, architecture });
      }
    }
    for (const [id, status] of liveStatus) {
      const d = map.get(id);
      if (d) {
        map.set(id, { ...d, status });
      }
    }
    return map;
  }, [initialDevices, options.data, liveStatus]);

  // A device going offline while the dialog is open is no longer one to deploy to (rule 4).
  useLiveMessages((event) => {
    if (event.type === 'device_update' && !event.payload.inventory) {
      const { id, status } = event.payload;
      setLiveStatus((m) => new Map(m).set(id, status));
    }
  });

  const defaultName = defaultJobName(initialPackages.map((p) => p.name));
  const form = useForm<DeployFormValues>({
    defaultValues: { jobName: defaultName, timing: 'now', date: '', time: '', description: '' },
  });
  const values = useWatch({ control: form.control }) as DeployFormValues;

  const selectedPackages = packageIds.map((id) => packages.get(id) ?? { id, name: `Package ${id}` });
  // docs/architecture.md "Package targets": only devices of the chosen packages' OS and
  // architecture are offered; a chosen device of another is dropped (the note says how many and why).
  const byTarget = devicesForPackages(
    [...devices.values()],
    selectedPackages.map((p) => p.target_os),
    selectedPackages.map((p) => p.architecture),
  );
  const leftOutKey = byTarget.leftOutIds.join(',');
  const [prunedFor, setPrunedFor] = useState('');
  if (prunedFor !== leftOutKey) {
    // adjusting state while rendering (react.dev "You might not need an effect")
    const leftOut = new Set(byTarget.leftOutIds);
    setPrunedFor(leftOutKey);
    setDeviceIds((ids) => (ids.some((id) => leftOut.has(id)) ? ids.filter((id) => !leftOut.has(id)) : ids));
  }
  const selectedDevices = deviceIds.map(
    (id) => devices.get(id) ?? { id, hostname: null, status: 'offline' as const },
  );

  // spec: core §4 — the job name follows the chosen packages until the user types one.
  const packageNames = selectedPackages.map((p) => p.name).join('\u0000');
  useEffect(() => {
    if (!form.getFieldState('jobName').isDirty) {
      form.setValue('jobName', defaultJobName(packageNames ? packageNames.split('\u0000') : []));
    }
  }, [packageNames, form]);

  const problems = deployProblems({
    packageCount: packageIds.length,
    devices: selectedDevices,
    jobName: values.jobName ?? '',
    schedule: values,
  });
  const blocker = problems[0]?.message ?? null;
  // spec: core §5 — submit is disabled while creating, with no package, no device or no name;
  // also with a schedule in the past (issue 24 item 6). Offline devices are said on sending.
  const isSubmitDisabled = isCreating || problems.some((p) => p.message !== messages.devicesOffline);
  // A rule's message shows next to its field once the user has worked on that field or tried
  // to send; a past schedule and offline devices are said at once.
  const jobNameState = form.getFieldState('jobName', form.formState);
  const isJobNameTouched = jobNameState.isDirty || jobNameState.isTouched;
  const shownError = (field: DeployField) => {
    const problem = problems.find((p) => p.field === field);
    const isShown =
      showRules ||
      touched.has(field) ||
      field === 'schedule' ||
      problem?.message === messages.devicesOffline ||
      (field === 'jobName' && isJobNameTouched);
    return problem && isShown ? problem.message : undefined;
  };
  const isLater = values.timing === 'later';
  const submitLabel = isLater ? 'Schedule Deployment' : 'Deploy Now';

  // One function for the dialog's whole life: the Dialog moves focus when its onClose changes.
  const latest = useRef({ isCreating, onClose });
  useLayoutEffect(() => {
    latest.current = { isCreating, onClose };
  });
  const close = useCallback(() => {
    if (!latest.current.isCreating) {
      latest.current.onClose();
    }
  }, []);

  const submit = form.handleSubmit(async (v) => {
    setError(null);
    const [rule] = deployProblems({
      packageCount: packageIds.length,
      devices: selectedDevices,
      jobName: v.jobName,
      schedule: v,
    });
    if (rule) {
      // the rules show next to their fields (and the first on the button)
      setShowRules(true);
      return;
    }
    setIsCreating(true);
    const outcome = await createJobs(create, selectedPackages, {
      deviceIds,
      jobName: v.jobName,
      description: v.description,
      scheduledAt: scheduledAt(v),
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
    // spec: core §4 — full success resets the dialog, closes it and calls the success callback.
    form.reset({ jobName: '', timing: 'now', date: '', time: '', description: '' });
    setPackageIds([]);
    setDeviceIds([]);
    onClose();
    onSuccess?.(outcome.jobs);
    const [first] = outcome.jobs;
    const isOne = outcome.jobs.length === 1 && first;
    toast.show({
      type: 'success',
      title: scheduledAt(v) ? 'Deployment scheduled' : 'Deployment created',
      message: isOne
        ? `${first.name} · ${first.total_devices} device(s)`
        : `${outcome.jobs.length} deployment jobs created`,
      action: {
        label: isOne ? 'View deployment' : 'View deployments',
        onClick: () => void navigate(isOne ? `/deployments/${first.id}` : '/deployments'),
      },
    });
  });

  const packageItems: PickItem[] = [...packages.values()].map((p) => ({
    id: p.id,
    label: p.name,
    detail: 'detail' in p ? p.detail : undefined,
  }));
  const deviceItems: PickItem[] = byTarget.offered.map((d) => ({
    id: d.id,
    label: d.hostname ?? `Device ${d.id}`,
    detail: d.ip_address ?? undefined,
    aside: <StatusBadge status={d.status} />,
  }));

  const loadFailed = options.isError;

  return (
    <Dialog
      isOpen={isOpen}
      onClose={close}
      size="xl"
      isDismissDisabled={isCreating}
      title="Deploy Package"
      description="Choose what to install and where, then deploy now or schedule it."
      footer={
        <>
          <p className="mr-auto text-sm text-slate-600 dark:text-slate-300" data-testid="deploy-summary">
            {deploySummary(deviceIds.length, values)}
          </p>
          <Button onClick={close} disabled={isCreating}>
            Cancel
          </Button>
          <Button
            type="submit"
            form={formId}
            variant="primary"
            isLoading={isCreating}
            disabled={isSubmitDisabled}
            disabledReason={isCreating ? undefined : (blocker ?? undefined)}
            onClickCapture={() => setShowRules(true)}
            icon={isLater ? <CalendarClock className="size-4" /> : <Rocket className="size-4" />}
          >
            {submitLabel}
          </Button>
        </>
      }
    >
      <form id={formId} noValidate onSubmit={(e) => void submit(e)} className="space-y-4">
        {loadFailed && <Alert>{messages.dialogLoad}</Alert>}
        {error && <Alert>{error}</Alert>}
        <ChangedPackagesNote changes={changedSinceDeploy(packageIds, packages)} />
        <PickList
          title="Packages"
          noun={['package', 'packages']}
          items={packageItems}
          selectedIds={packageIds}
          onChange={(ids) => {
            setPackageIds(ids);
            touch('packages');
          }}
          error={shownError('packages')}
          searchPlaceholder="Search packages..."
          isLoading={options.isPending && isOpen}
          isDisabled={isCreating}
          hint={`Up to ${DEPLOY_DIALOG_LOAD_LIMIT} packages are listed; search to narrow them.`}
        />
        <PickList
          title="Devices"
          noun={['device', 'devices']}
          items={deviceItems}
          selectedIds={deviceIds}
          onChange={(ids) => {
            setDeviceIds(ids);
            touch('devices');
          }}
          error={shownError('devices')}
          searchPlaceholder="Search hostname or IP..."
          isLoading={options.isPending && isOpen}
          isDisabled={isCreating}
          hint={
            <>
              Only devices that are online or logged in are offered.
              {byTarget.note && (
                <span
                  className="mt-1 block font-medium text-amber-700 dark:text-amber-300"
                  data-testid="devices-left-out"
                >
                  {byTarget.note}
                </span>
              )}
            </>
          }
        />

        <DeployFields
          form={form}
          values={values}
          formId={formId}
          isDisabled={isCreating}
          jobNameError={shownError('jobName')}
          scheduleError={shownError('schedule')}
        />
      </form>
    </Dialog>
  );
}
