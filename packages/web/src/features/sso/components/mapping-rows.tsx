import { Plus, Trash2 } from 'lucide-react';
import { ROLES, roleLabel } from '@outpost/contract/auth';
import type { Role } from '@outpost/contract/auth';
import type { SiteOption } from '@outpost/contract/devices';
import { Button, IconButton } from '../../../components/ui/button';
import { Checkbox, Input, Select } from '../../../components/ui/form';
import type { MappingRow } from '../lib/sso-form';

// docs/product/sign-in.md#just-in-time-membership-and-roles — one row per group claim value: the
// role it gives, and all sites or the sites ticked.
export function MappingRows({
  rows,
  sites,
  onChange,
}: {
  rows: MappingRow[];
  sites: SiteOption[];
  onChange: (rows: MappingRow[]) => void;
}) {
  const update = (index: number, patch: Partial<MappingRow>) =>
    onChange(rows.map((r, i) => (i === index ? { ...r, ...patch } : r)));
  return (
    <div className="space-y-3">
      {rows.length === 0 && (
        <p className="text-sm text-slate-500 dark:text-slate-400">
          No groups mapped: Outpost's own roles and sites stand, as set on the Users page.
        </p>
      )}
      {rows.map((row, index) => (
        <fieldset
          key={index}
          className="space-y-3 rounded-md border border-slate-200 p-3 dark:border-slate-700"
          aria-label={`Mapping ${index + 1}`}
        >
          <div className="flex flex-wrap items-end gap-3">
            <label className="min-w-40 flex-1 text-sm font-medium text-slate-700 dark:text-slate-200">
              Group or role value
              <Input
                className="mt-1"
                value={row.group}
                placeholder="e.g. outpost-admins"
                onChange={(e) => update(index, { group: e.target.value })}
              />
            </label>
            <label className="text-sm font-medium text-slate-700 dark:text-slate-200">
              Outpost role
              <Select
                className="mt-1 w-40"
                value={row.role}
                onChange={(e) => update(index, { role: e.target.value as Role })}
              >
                {ROLES.map((r) => (
                  <option key={r} value={r}>
                    {roleLabel(r)}
                  </option>
                ))}
              </Select>
            </label>
            <IconButton
              label={`Remove mapping ${index + 1}`}
              onClick={() => onChange(rows.filter((_, i) => i !== index))}
            >
              <Trash2 className="size-4" />
            </IconButton>
          </div>
          <div className="flex flex-wrap gap-x-5 gap-y-2">
            <Checkbox
              label="All sites"
              checked={row.allSites}
              onChange={(e) => update(index, { allSites: e.target.checked })}
            />
            {!row.allSites &&
              sites.map((site) => (
                <Checkbox
                  key={site.id}
                  label={site.site_name}
                  checked={row.siteIds.includes(site.id)}
                  onChange={(e) =>
                    update(index, {
                      siteIds: e.target.checked
                        ? [...row.siteIds, site.id]
                        : row.siteIds.filter((id) => id !== site.id),
                    })
                  }
                />
              ))}
          </div>
        </fieldset>
      ))}
      <Button
        size="sm"
        onClick={() => onChange([...rows, { group: '', role: 'user', allSites: true, siteIds: [] }])}
      >
        <Plus className="size-4" aria-hidden />
        Add mapping
      </Button>
    </div>
  );
}
