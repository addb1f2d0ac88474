import { packageMessages as messages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';

/** What stands above the builder's cards: read-only, the last save's error, what blocks saving. */
export function BuilderAlerts({
  isReadOnly,
  saveError,
  blockers,
}: {
  isReadOnly: boolean;
  saveError: string | null;
  blockers: string[];
}) {
  return (
    <>
      {isReadOnly && (
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
    </>
  );
}
