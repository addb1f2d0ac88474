import { Save } from 'lucide-react';
import { Button } from '../../../components/ui/button';
import { DeployButton } from './deploy-button';

/** The builder header's buttons: Deploy (a saved package), Cancel and Save Package. */
export function BuilderActions({
  deployPackage,
  hasChanges,
  isSaving,
  canSave,
  onCancel,
  onSave,
}: {
  /** the saved package being edited, offered for deploying; null for a new one */
  deployPackage: { id: number; name: string } | null;
  hasChanges: boolean;
  isSaving: boolean;
  canSave: boolean;
  onCancel: () => void;
  onSave: () => void;
}) {
  return (
    <>
      {deployPackage && (
        <DeployButton
          size="md"
          packages={[deployPackage]}
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
