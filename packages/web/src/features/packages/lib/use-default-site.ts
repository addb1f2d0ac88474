import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import type { PackageInfo } from './builder-state';

/** A new package starts in the member's own site when they have one and none is chosen yet. */
export function useDefaultSite(form: UseFormReturn<PackageInfo>, defaultSiteId: string | undefined) {
  useEffect(() => {
    if (defaultSiteId && !form.getValues('site_id')) {
      form.setValue('site_id', defaultSiteId);
    }
  }, [defaultSiteId, form]);
}
