import { useNavigate } from 'react-router';
import { Eye, Pencil, Trash2 } from 'lucide-react';
import type { PackageSummary } from '@outpost/contract/packages';
import { Button } from '../../../components/ui/button';
import { useUser } from '../../../lib/auth';
import { canChangePackage } from '../lib/package-access';
import { DeployButton } from './deploy-button';

// A package row's main actions. A package shared with all sites is read-only to a member limited
// to some sites (SECURITY.md R2-5): they may view and deploy it, not edit or delete it.
export function PackageRowActions({
  pkg,
  onDelete,
}: {
  pkg: PackageSummary;
  onDelete: (pkg: PackageSummary) => void;
}) {
  const navigate = useNavigate();
  const canChange = canChangePackage(useUser(), pkg);
  return (
    <>
      <Button
        size="sm"
        icon={canChange ? <Pencil className="size-3.5" /> : <Eye className="size-3.5" />}
        onClick={() => void navigate(`/packages/${pkg.id}/edit`)}
      >
        {canChange ? 'Edit' : 'View'}
      </Button>
      <DeployButton packages={[pkg]} />
      {canChange && (
        <Button
          size="sm"
          variant="ghost"
          className="text-red-600 hover:bg-red-50 hover:text-red-700 dark:text-red-400 dark:hover:bg-red-500/10"
          icon={<Trash2 className="size-3.5" />}
          onClick={() => onDelete(pkg)}
        >
          Delete
        </Button>
      )}
    </>
  );
}
