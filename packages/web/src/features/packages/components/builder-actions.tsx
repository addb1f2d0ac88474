import { Link } from 'react-router';
import { ArrowLeft, Save } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { ConfirmDialog } from '../../../components/ui/dialog';
import { DeployButton } from './deploy-button';

/** The builder's header actions: Deploy (a saved package), Cancel and Save Package. */
export function BuilderActions({
  deployable,
  hasChanges,
  isSaving,
  canSave,
  onCancel,
  onSave,
}: {
  /** the saved package being edited, or null for a new one */
  deployable: { id: number; name: string } | null;
  hasChanges: boolean;
  isSaving: boolean;
  canSave: boolean;
  onCancel: () => void;
  onSave: () => void;
}) {
  return (
    <>
      {deployable && (
        <DeployButton
          size="md"
          packages={[deployable]}
          disabledReason={hasChanges ? 'Save your changes before deploying this package' : undefined}
        />
      )}
      <Button onClick={onCancel} disabled={isSaving}>
        Cancel
      </Button>
      <Button
        variant="primary"
        icon={<Save className="size-4" />}
        isLoading={isSaving}
        disabled={!canSave}
        onClick={onSave}
      >
        {isSaving ? 'Saving...' : 'Save Package'}
      </Button>
    </>
  );
}

export function BuilderBackLink() {
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

/** Leave without saving?, and the delete confirmation of a saved step. */
export function BuilderDialogs({
  isLeaving,
  onLeave,
  onStay,
  deleteIndex,
  deleteName,
  onDelete,
  onKeep,
}: {
  isLeaving: boolean;
  onLeave: () => void;
  onStay: () => void;
  /** the step waiting for its delete confirmation, or null */
  deleteIndex: number | null;
  deleteName: string;
  onDelete: () => void;
  onKeep: () => void;
}) {
  return (
    <>
      <ConfirmDialog
        isOpen={isLeaving}
        title="Leave without saving?"
        message="Your changes to this package have not been saved. They are lost if you leave now."
        confirmLabel="Leave"
        onConfirm={onLeave}
        onCancel={onStay}
      />
      <ConfirmDialog
        isOpen={deleteIndex !== null}
        title="Delete step"
        message={`Delete step ${(deleteIndex ?? 0) + 1} "${deleteName}"? It is removed from the package when you save it.`}
        confirmLabel="Delete Step"
        onConfirm={onDelete}
        onCancel={onKeep}
      />
    </>
  );
}
