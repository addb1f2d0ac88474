import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { packageMessages as messages } from '@outpost/contract/messages';
import { PACKAGE_DEFAULTS } from '@outpost/contract/packages';
import { Card, PageHeader } from '../../../components/ui/card';
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
import { BuilderActions, BuilderBackLink, BuilderDialogs } from '../components/builder-actions';
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
import { PackageInfoSchema } from '../lib/package-info-schema';
import { savePackage } from '../lib/save-flow';
import { useDefaultSite } from '../lib/use-default-site';
import { useLeaveGuard } from '../lib/use-leave-guard';
import { useStepDrafts } from '../lib/use-step-drafts';

// docs/product/packages.md#builder Package builder (/packages/builder and /packages/{id}/edit), docs/product/packages.md package
// save, docs/product/packages.md validation, #saving errors.

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
        <BuilderBackLink />
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
  const drafts = useStepDrafts(initialSteps);
  const { steps, setSteps, deletedStepIds, setDeletedStepIds } = drafts;
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
  // docs/product/packages.md#builder: disabled while saving, while loading, when the name is empty or there are no steps.
  const canSave = !isLocked && blockers.length === 0;
  const addBlocker = addStepBlocker(steps.length);
  useDefaultSite(form, isEdit ? undefined : access.defaultSiteId);

  // Leaving with unsaved changes asks first (in-app navigation and closing the tab).
  const [isSaved, setIsSaved] = useState(false);
  const [savedOrder] = useState(() => initialSteps.map((s) => s.key).join(','));
  const hasChanges =
    !isSaved &&
    (form.formState.isDirty ||
      deletedStepIds.length > 0 ||
      steps.some((s) => s.isDirty) ||
      steps.map((s) => s.key).join(',') !== savedOrder);
  const blocker = useLeaveGuard(hasChanges);
  // After a save, leave once the blocker has seen that nothing is unsaved any more.
  useEffect(() => {
    if (isSaved) {
      void navigate('/packages');
    }
  }, [isSaved, navigate]);
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
      setIsSaved(true);
      return;
    }
    setPackageId(result.packageId);
    setSteps(result.steps);
    setDeletedStepIds(result.deletedStepIds);
    setSaveError(result.error);
    setIsSaving(false);
  });

  const title = isEdit ? 'Edit Package' : 'Package Builder';
  return (
    <div className="mx-auto max-w-5xl pb-10">
      <BuilderBackLink />
      <PageHeader
        title={title}
        description="Build a deployment package from ordered installation steps for Windows devices."
        actions={
          <BuilderActions
            deployable={isEdit && packageId !== null ? { id: packageId, name: initialInfo.name } : null}
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
          form={form}
          isDisabled={isLocked}
          sites={access.sites}
          isSiteLimited={access.isSiteLimited}
          windowsOnlySteps={windowsOnlySteps(steps)}
          onSubmit={(e) => void onSave(e)}
        />

        <StepsCard
          steps={steps}
          isLocked={isLocked}
          addBlocker={addBlocker}
          onAdd={drafts.openNewStep}
          onMove={(from, to) => setSteps((list) => moveStep(list, from, to))}
          onEdit={(index) => drafts.setEditing({ index, draft: steps[index]!, isNew: false })}
          onDelete={drafts.requestDelete}
        />
      </div>

      {drafts.editing && (
        <StepEditorDialog
          draft={drafts.editing.draft}
          targetOs={targetOs}
          stepNumber={drafts.editing.index + 1}
          isNew={drafts.editing.isNew}
          onSave={drafts.saveStep}
          onCancel={() => drafts.setEditing(null)}
        />
      )}
      <BuilderDialogs
        isLeaving={blocker.state === 'blocked'}
        onLeave={() => blocker.proceed?.()}
        onStay={() => blocker.reset?.()}
        deleteIndex={drafts.pendingDelete}
        deleteName={steps[drafts.pendingDelete ?? 0]?.step_name ?? ''}
        onDelete={drafts.confirmDelete}
        onKeep={drafts.cancelDelete}
      />
    </div>
  );
}
