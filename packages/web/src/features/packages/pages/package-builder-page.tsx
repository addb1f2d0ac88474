import { useEffect, useState } from 'react';
import { Link, useBlocker, useNavigate, useParams } from 'react-router';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { z } from 'zod';
import { ArrowLeft, Save } from 'lucide-react';
import { packageMessages as messages } from '@outpost/contract/messages';
import { Architecture, PACKAGE_DEFAULTS, PACKAGE_NAME_MAX } from '@outpost/contract/packages';
import { AVAILABLE_TARGET_OSES } from '@outpost/contract/targets';
import { Alert } from '../../../components/ui/alert';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader, PageHeader } from '../../../components/ui/card';
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
import { DeployButton } from '../components/deploy-button';
import { PackageInfoFields } from '../components/package-info-fields';
import { StepEditorDialog } from '../components/step-editor-dialog';
import { StepsCard } from '../components/steps-card';
import {
  EMPTY_INFO,
  addStepBlocker,
  draftFromStep,
  infoFromPackage,
  moveStep,
  newStepDraft,
  packageBlockers,
  windowsOnlySteps,
} from '../lib/builder-state';
import type { PackageInfo, StepDraft } from '../lib/builder-state';
import { usePackageAccess } from '../lib/package-access';
import type { PackageAccess } from '../lib/package-access';
import { savePackage } from '../lib/save-flow';

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

type Editing = { index: number; draft: StepDraft; isNew: boolean };

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
  const [steps, setSteps] = useState<StepDraft[]>(initialSteps);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [pendingDelete, setPendingDelete] = useState<number | null>(null);
  // Saved steps removed here, deleted on the server only when the package is saved
  // (docs/decisions/2026-11-26-step-delete-on-save.md).
  const [deletedStepIds, setDeletedStepIds] = useState<number[]>([]);
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

  // Leaving with unsaved changes asks first (in-app navigation and closing the tab).
  const [isSaved, setIsSaved] = useState(false);
  const [savedOrder] = useState(() => initialSteps.map((s) => s.key).join(','));
  const hasChanges =
    !isSaved &&
    (form.formState.isDirty ||
      deletedStepIds.length > 0 ||
      steps.some((s) => s.isDirty) ||
      steps.map((s) => s.key).join(',') !== savedOrder);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => hasChanges && currentLocation.pathname !== nextLocation.pathname,
  );
  // After a save, leave once the blocker has seen that nothing is unsaved any more.
  useEffect(() => {
    if (isSaved) {
      void navigate('/packages');
    }
  }, [isSaved, navigate]);
  useEffect(() => {
    if (!hasChanges) {
      return;
    }
    const onBeforeUnload = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [hasChanges]);

  useEffect(() => {
    document.title = `${isEdit ? 'Edit Package' : 'Package Builder'} · Outpost`;
  }, [isEdit]);

  function openNewStep() {
    setEditing({ index: steps.length, draft: newStepDraft('CMD'), isNew: true });
  }

  function saveStep(draft: StepDraft) {
    if (!editing) {
      return;
    }
    setSteps((list) =>
      editing.isNew ? [...list, draft] : list.map((s, i) => (i === editing.index ? draft : s)),
    );
    setEditing(null);
  }

  function confirmDelete() {
    const step = pendingDelete === null ? undefined : steps[pendingDelete];
    if (step?.id != null) {
      const id = step.id;
      setDeletedStepIds((ids) => [...ids, id]);
    }
    setSteps((list) => list.filter((_, i) => i !== pendingDelete));
    setPendingDelete(null);
  }

  function requestDelete(index: number) {
    if (steps[index]?.id == null) {
      setSteps((list) => list.filter((_, i) => i !== index));
      return;
    }
    setPendingDelete(index);
  }

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
      <BackLink />
      <PageHeader
        title={title}
        description="Build a deployment package from ordered installation steps for Windows devices."
        actions={
          <>
            {isEdit && packageId !== null && (
              <DeployButton
                size="md"
                packages={[{ id: packageId, name: initialInfo.name }]}
                disabledReason={hasChanges ? 'Save your changes before deploying this package' : undefined}
              />
            )}
            <Button onClick={() => void navigate('/packages')} disabled={isSaving}>
              Cancel
            </Button>
            <Button
              variant="primary"
              icon={<Save className="size-4" />}
              isLoading={isSaving}
              disabled={!canSave}
              onClick={() => void onSave()}
            >
              {isSaving ? 'Saving...' : 'Save Package'}
            </Button>
          </>
        }
      />

      {access.isReadOnly && (
        <Alert tone="info" className="mb-4">
          <span data-testid="package-read-only">{messages.tenantWideReadOnly}</span>
        </Alert>
      )}
      {saveError && (
        <Alert className="mb-4">
          <span data-testid="save-error">{saveError}</span>
        </Alert>
      )}
      {blockers.length > 0 && (
        <Alert tone="info" className="mb-4">
          <p className="font-medium">Before you can save this package:</p>
          <ul data-testid="package-blockers" className="mt-0.5 list-disc space-y-0.5 pl-4">
            {blockers.map((b) => (
              <li key={b}>{b}</li>
            ))}
          </ul>
        </Alert>
      )}

      <div className="space-y-6">
        <Card>
          <CardHeader
            title={
              <span className="flex items-center gap-2">
                <Badge tone="indigo">Step 1 of 2</Badge> Package information
              </span>
            }
            description="Name the package and say where it applies."
          />
          <div className="px-5 py-5">
            <form onSubmit={(e) => void onSave(e)} noValidate>
              <PackageInfoFields
                form={form}
                isDisabled={isLocked}
                sites={access.sites}
                isSiteLimited={access.isSiteLimited}
                windowsOnlySteps={windowsOnlySteps(steps)}
              />
            </form>
          </div>
        </Card>

        <StepsCard
          steps={steps}
          isLocked={isLocked}
          addBlocker={addBlocker}
          onAdd={openNewStep}
          onMove={(from, to) => setSteps((list) => moveStep(list, from, to))}
          onEdit={(index) => setEditing({ index, draft: steps[index]!, isNew: false })}
          onDelete={requestDelete}
        />
      </div>

      {editing && (
        <StepEditorDialog
          draft={editing.draft}
          targetOs={targetOs}
          stepNumber={editing.index + 1}
          isNew={editing.isNew}
          onSave={saveStep}
          onCancel={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        isOpen={blocker.state === 'blocked'}
        title="Leave without saving?"
        message="Your changes to this package have not been saved. They are lost if you leave now."
        confirmLabel="Leave"
        onConfirm={() => blocker.proceed?.()}
        onCancel={() => blocker.reset?.()}
      />
      <ConfirmDialog
        isOpen={pendingDelete !== null}
        title="Delete step"
        message={`Delete step ${(pendingDelete ?? 0) + 1} "${steps[pendingDelete ?? 0]?.step_name ?? ''}"? It is removed from the package when you save it.`}
        confirmLabel="Delete Step"
        onConfirm={confirmDelete}
        onCancel={() => setPendingDelete(null)}
      />
    </div>
  );
}
