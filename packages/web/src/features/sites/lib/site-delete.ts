import { adminMessages } from '@outpost/contract/messages';
import type { DeleteSitesResponse } from '@outpost/contract/sites';
import type { Site } from '../api/sites';

// Deleting a site unassigns its devices: the confirmation and the result say so.

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** The confirmation: which sites, and how many devices become unassigned. */
export function deleteSitesMessage(sites: Pick<Site, 'site_name' | 'device_count'>[]): string {
  const devices = sites.reduce((n, s) => n + (s.device_count ?? 0), 0);
  if (sites.length === 1) {
    return adminMessages.siteDeleteConfirm(sites[0]!.site_name, devices);
  }
  return (
    `Are you sure you want to delete ${plural(sites.length, 'site')}?` +
    (devices === 0
      ? ''
      : ` Their ${plural(devices, 'device')} will become unassigned; they stay enrolled and can be assigned to another site.`) +
    ' This action cannot be undone.'
  );
}

/** The success toast's text, from the server's answer. */
export function deletedSitesMessage(
  result: Pick<DeleteSitesResponse, 'deleted' | 'devices_unassigned'>,
): string {
  return adminMessages.sitesDeleted(result.deleted, result.devices_unassigned);
}
