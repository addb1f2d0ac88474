import { Copy, FileDown, LayoutTemplate, MoreHorizontal } from 'lucide-react';
import type { PackageSummary } from '@outpost/contract/packages';
import { Menu, MenuItem } from '../../../components/ui/menu';

/** A package row's "More actions": Duplicate, Save as template (packages only) and Export JSON. */
export function PackageMoreMenu({
  pkg,
  onDuplicate,
  onExport,
}: {
  pkg: PackageSummary;
  onDuplicate: (pkg: PackageSummary, asTemplate: boolean) => void;
  onExport: (pkg: PackageSummary) => void;
}) {
  return (
    <Menu
      label={`More actions for ${pkg.name}`}
      trigger={() => (
        <span className="inline-flex size-8 items-center justify-center rounded-md text-slate-500 hover:bg-slate-100 hover:text-slate-700 dark:text-slate-400 dark:hover:bg-slate-800 dark:hover:text-slate-200">
          <MoreHorizontal className="size-4" aria-hidden />
        </span>
      )}
    >
      {(close) => (
        <>
          <MenuItem
            icon={<Copy className="size-4" />}
            onClick={() => {
              close();
              onDuplicate(pkg, false);
            }}
          >
            Duplicate
          </MenuItem>
          {!pkg.is_template && (
            <MenuItem
              icon={<LayoutTemplate className="size-4" />}
              onClick={() => {
                close();
                onDuplicate(pkg, true);
              }}
            >
              Save as template
            </MenuItem>
          )}
          <MenuItem
            icon={<FileDown className="size-4" />}
            onClick={() => {
              close();
              onExport(pkg);
            }}
          >
            Export JSON
          </MenuItem>
        </>
      )}
    </Menu>
  );
}
