import type { SiteOption } from '@outpost/contract/devices';
import { cn } from '../../../lib/cn';
import type { UserForm } from '../lib/user-form';
import { SiteMultiSelect } from './site-multi-select';

const CHOICES = [
  ['all', 'All Sites', 'Every site, now and later'],
  ['specific', 'Specific Sites', 'Only the sites chosen below'],
] as const;

/** The user dialog's Site Access: all sites, or the sites chosen in the list below the choice. */
export function SiteAccessField({
  accessType,
  siteIds,
  sites,
  isLoadingSites,
  onAccessTypeChange,
  onSiteIdsChange,
}: {
  accessType: UserForm['siteAccessType'];
  siteIds: UserForm['siteIds'];
  sites: SiteOption[];
  isLoadingSites: boolean;
  onAccessTypeChange: (value: UserForm['siteAccessType']) => void;
  onSiteIdsChange: (siteIds: UserForm['siteIds']) => void;
}) {
  return (
    <fieldset className="space-y-2">
      <legend className="text-sm font-medium text-slate-700 dark:text-slate-200">Site Access</legend>
      <div className="grid grid-cols-2 gap-2">
        {CHOICES.map(([value, label, hint]) => (
          <label
            key={value}
            className={cn(
              'flex cursor-pointer items-start gap-2.5 rounded-lg p-3 ring-1 transition-colors',
              accessType === value
                ? 'bg-indigo-50/60 ring-indigo-500 dark:bg-indigo-500/10 dark:ring-indigo-400'
                : 'ring-slate-200 hover:bg-slate-50 dark:ring-slate-700 dark:hover:bg-slate-800/60',
            )}
          >
            <input
              type="radio"
              name="site-access"
              value={value}
              checked={accessType === value}
              onChange={() => onAccessTypeChange(value)}
              className="mt-0.5 accent-indigo-600"
            />
            <span>
              <span className="block text-sm font-medium text-slate-900 dark:text-white">{label}</span>
              <span className="block text-xs text-slate-500 dark:text-slate-400">{hint}</span>
            </span>
          </label>
        ))}
      </div>
      {accessType === 'specific' && (
        <SiteMultiSelect
          sites={sites}
          isLoading={isLoadingSites}
          selected={siteIds}
          onChange={onSiteIdsChange}
        />
      )}
    </fieldset>
  );
}
