import { useEffect, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ArrowLeft } from 'lucide-react';
import { packageMessages as messages } from '@outpost/contract/messages';
import { Architecture, PACKAGE_DEFAULTS, PACKAGE_NAME_MAX } from '@outpost/contract/packages';
import { AVAILABLE_TARGET_OSES } from '@outpost/contract/targets';
import type { AvailableTargetOs } from '@outpost/contract/targets';
import { Card, PageHeader } from '../../../components/ui/card';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { PageSpinner } from '../../../components/ui/spinner';
import { ErrorState } from '../../../components/ui/states';
import { useToast } from '../../../components/ui/toast';
import { errorMessage } from '../../../lib/api-client';
import { usePackage } from '../api/get-package';
import {
  addStep,
  createPackage,
  deleteStep,
  reorderSteps,
  updatePackage,
  updateStep,
  useInvalidatePackages,
} from '../api/save-package';
import { BuilderAlerts } from '../components/builder-alerts';
import { BuilderActions } from '../components/builder-actions';
import { PackageInfoCard } from '../components/package-info-fields';
import { StepEditorDialog } from '../components/step-editor-dialog';
import { StepsCard } from '../components/steps-card';
import {
  EMPTY_INFO,
  addStepBlocker,
  draftFromStep,
  infoFromPackage,
  moveStep,
  packageBlockers,
  windowsOnlySteps,
} from '../lib/builder-state';
import type { PackageInfo, StepDraft } from '../lib/builder-state';
import { usePackageAccess } from '../lib/package-access';
import type { PackageAccess } from '../lib/package-access';
import { savePackage } from '../lib/save-flow';
import { useBuilderSteps } from '../lib/use-builder-steps';
import { useLeaveGuard } from '../lib/use-leave-guard';

// spec: operations §2.3 Package builder (/packages/builder and /packages/{id}/edit), §4 package
// save, §5 validation, §8 errors.

const PackageInfoSchema = z.object({
  name: z.string().trim().min(1, messages.packageNameRequired).max(PACKAGE_NAME_MAX),
  description: z.string(),
  target_os: z.enum(AVAILABLE_TARGET_OSES),
  os_version_requirement: z.string().max(100, 'OS version requirement must be 100 characters or less'),
  architecture: Architecture,
  package_version: z.string().trim().min(1, 'Package version is required').max(50),
  is_template: z.boolean(),
  site_id: z.string(),
});

const SAVE_DEPS = { createPackage, updatePackage, addStep, updateStep, deleteStep, reorderSteps };

export default function PackageBuilderPage() {
  const params = useParams();
  const routeId = params.id ? Number(params.id) : null;
  const isEdit = routeId !== null;
  const loaded = usePackage(Number.isInteger(routeId) ? routeId : null);
  const access = usePackageAccess(loaded.data ?? null);

  if (isEdit && (loaded.isPending || loaded.isFetching) && !loaded.data) {
    return <PageSpinner label="Loading package..." />;
  }
  if (isEdit && (loaded.isError || !Number.isInteger(routeId))) {
    return (
      <>
        <BackLink />
        <Card>
          <ErrorState
            title={messages.packageLoad}
            message={loaded.error ? errorMessage(loaded.error, messages.packageLoad) : undefined}
            onRetry={() => void loaded.refetch()}
          />
        </Card>
      </>
    );
  }
  return (
    <Builder
      key={loaded.data?.id ?? 'new'}
      packageId={loaded.data?.id ?? null}
      initialInfo={loaded.data ? infoFromPackage(loaded.data) : EMPTY_INFO}
      initialSteps={loaded.data ? loaded.data.steps.map(draftFromStep) : []}
      access={access}
    />
  );
}

function BackLink() {
  return (
    <Link
      to="/packages"
      className="mb-4 inline-flex items-center gap-1.5 text-sm font-medium text-slate-500 hover:text-slate-800 dark:text-slate-400 dark:hover:text-white"
    >
      <ArrowLeft className="size-4" aria-hidden />
      Back to packages
    </Link>
  );
}

function Builder({
  packageId: initialPackageId,
  initialInfo,
  initialSteps,
  access,
}: {
  packageId: number | null;
  initialInfo: PackageInfo;
  initialSteps: StepDraft[];
  access: PackageAccess;
}) {
  const navigate = useNavigate();
  const toast = useToast();
  const invalidate = useInvalidatePackages();
  const isEdit = initialPackageId !== null;
  // After a partly failed first save the package exists: later saves update it (no duplicate).
  const [packageId, setPackageId] = useState(initialPackageId);
  const stepList = useBuilderSteps(initialSteps);
  const { steps, setSteps, setEditing, deletedStepIds } = stepList;
  const [isSaving, setIsSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);

  const form = useForm<PackageInfo>({
    defaultValues: initialInfo,
    resolver: zodResolver(PackageInfoSchema),
    mode: 'onTouched',
  });
  const name = useWatch({ control: form.control, name: 'name' }) ?? '';
  const siteId = useWatch({ control: form.control, name: 'site_id' }) ?? '';
  const targetOs = useWatch({ control: form.control, name: 'target_os' }) ?? PACKAGE_DEFAULTS.target_os;
  const blockers = packageBlockers({ name, site_id: siteId }, steps, {
    mustChooseSite: access.isSiteLimited,
  });
  // A shared package is read-only to a site-limited member (SECURITY.md R2-5).
  const isLocked = isSaving || access.isReadOnly;
  // spec §2.3: disabled while saving, while loading, when the name is empty or there are no steps.
  const canSave = !isLocked && blockers.length === 0;
  const addBlocker = addStepBlocker(steps.length);
  useEffect(() => {
    if (!isEdit && access.defaultSiteId && !form.getValues('site_id')) {
      form.setValue('site_id', access.defaultSiteId);
    }
  }, [isEdit, access.defaultSiteId, form]);

  const [savedOrder] = useState(() => initialSteps.map((s) => s.key).join(','));
  const { hasChanges, blocker, markSaved } = useLeaveGuard(
    form.formState.isDirty ||
      deletedStepIds.length > 0 ||
      steps.some((s) => s.isDirty) ||
      steps.map((s) => s.key).join(',') !== savedOrder,
  );

  useEffect(() => {
    document.title = `${isEdit ? 'Edit Package' : 'Package Builder'} · Outpost`;
  }, [isEdit]);

  const onSave = form.handleSubmit(async (info) => {
    if (!canSave) {
      return;
    }
    setIsSaving(true);
    setSaveError(null);
    const result = await savePackage(SAVE_DEPS, { packageId, info, steps, deletedStepIds });
    void invalidate();
    if (result.ok) {
      toast.show({
        type: 'success',
        title: isEdit ? 'Package updated' : 'Package created',
        message: info.name.trim(),
      });
      markSaved();
      return;
    }
    setPackageId(result.packageId);
    setSteps(result.steps);
    stepList.setDeletedStepIds(result.deletedStepIds);
    setSaveError(result.error);
    setIsSaving(false);
  });

  const title = isEdit ? 'Edit Package' : 'Package Builder';
  return (
    <div className="mx-auto max-w-5xl pb-10">
      <BackLink />
      <PageHeader
        title={title}
        description="Build a deployment package from ordered installation steps for Windows devices."
        actions={
          <BuilderActions
            deployPackage={isEdit && packageId !== null ? { id: packageId, name: initialInfo.name } : null}
            hasChanges={hasChanges}
            isSaving={isSaving}
            canSave={canSave}
            onCancel={() => void navigate('/packages')}
            onSave={() => void onSave()}
          />
        }
      />

      <BuilderAlerts isReadOnly={access.isReadOnly} saveError={saveError} blockers={blockers} />

      <div className="space-y-6">
        <PackageInfoCard
          onSubmit={(e) => void onSave(e)}
          form={form}
          isDisabled={isLocked}
          sites={access.sites}
          isSiteLimited={access.isSiteLimited}
          windowsOnlySteps={windowsOnlySteps(steps)}
        />

        <StepsCard
          steps={steps}
          isLocked={isLocked}
          addBlocker={addBlocker}
          onAdd={stepList.openNewStep}
          onMove={(from, to) => setSteps((list) => moveStep(list, from, to))}
          onEdit={(index) => setEditing({ index, draft: steps[index]!, isNew: false })}
          onDelete={stepList.requestDelete}
        />
      </div>

      <StepDialogs stepList={stepList} targetOs={targetOs} />
      <ConfirmDialog
        isOpen={blocker.state === 'blocked'}
        title="Leave without saving?"
        message="Your changes to this package have not been saved. They are lost if you leave now."
        confirmLabel="Leave"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
    </div>
  );
}

/** The step editor and the confirmation of a saved step's delete. */
function StepDialogs({
  stepList,
  targetOs,
}: {
  stepList: ReturnType<typeof useBuilderSteps>;
  targetOs: AvailableTargetOs;
}) {
  const { steps, editing, setEditing, pendingDelete } = stepList;
  return (
    <>
      {editing && (
        <StepEditorDialog
          draft={editing.draft}
          targetOs={targetOs}
          stepNumber={editing.index + 1}
          isNew={editing.isNew}
          onSave={stepList.saveStep}
          onCancel={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        isOpen={pendingDelete !== null}
        title="Delete step"
        message={`Delete step ${(pendingDelete ?? 0) + 1} "${steps[pendingDelete ?? 0]?.step_name ?? ''}"? It is removed from the package when you save it.`}
        confirmLabel="Delete Step"
        onConfirm={stepList.confirmDelete}
        onCancel={() => stepList.setPendingDelete(null)}
      />
    </>
  );
}
