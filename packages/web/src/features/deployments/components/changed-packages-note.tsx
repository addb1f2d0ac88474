import type { PackageSummary } from '@outpost/contract/packages';
import { packageMessages } from '@outpost/contract/messages';
import { Alert } from '../../../components/ui/alert';
import { formatDateTime } from '../../../lib/format';

// SECURITY.md R2-5: before deploying, say which chosen packages changed since they were last
// deployed, by whom and when, so nobody deploys someone else's edit unawares.

export type PackageChange = Pick<PackageSummary, 'id' | 'name' | 'updated_at' | 'updated_by_name'>;

/** What the dialog knows of a package (from the package list) to tell whether it changed. */
export type PackageChangeFacts = Partial<Pick<PackageSummary, 'is_changed_since_deploy'> & PackageChange>;

/** The chosen packages that changed since their last deployment, in the order chosen. */
export function changedSinceDeploy(
  chosenIds: readonly number[],
  known: ReadonlyMap<number, PackageChangeFacts>,
): PackageChange[] {
  return chosenIds.flatMap((id) => {
    const p = known.get(id);
    return p?.is_changed_since_deploy && p.name && p.updated_at
      ? [{ id, name: p.name, updated_at: p.updated_at, updated_by_name: p.updated_by_name ?? null }]
      : [];
  });
}

export function ChangedPackagesNote({ changes }: { changes: PackageChange[] }) {
  if (changes.length === 0) {
    return null;
  }
  return (
    <Alert tone="warning">
      <ul data-testid="changed-packages" className="space-y-0.5">
        {changes.map((c) => (
          <li key={c.id}>
            <span className="font-medium">{c.name}</span>:{' '}
            {packageMessages.changedSinceDeploy(c.updated_by_name, formatDateTime(c.updated_at))}
          </li>
        ))}
      </ul>
    </Alert>
  );
}
