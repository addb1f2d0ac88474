import type { Site, SiteDeleteResult } from '../../../lib/api/sites';

// Deleting a site unassigns its devices (issue 11): the confirmation and the result say so.

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** What deleting these sites does to their devices, for the confirmation. */
export function deleteSitesMessage(sites: Pick<Site, 'site_name' | 'device_count'>[]): string {
  const devices = sites.reduce((n, s) => n + (s.device_count ?? 0), 0);
  const what = sites.length === 1 ? sites[0]!.site_name : plural(sites.length, 'site');
  if (devices === 0) {
    return `${what} will be deleted. No devices are assigned to ${sites.length === 1 ? 'it' : 'them'}.`;
  }
  return `${what} will be deleted. ${plural(devices, 'device')} assigned to ${
    sites.length === 1 ? 'it' : 'them'
  } will be unassigned; they stay enrolled and can be assigned to another site.`;
}

/** The success toast's text, from the server's result. */
export function deletedSitesMessage(
  result: Partial<SiteDeleteResult> | null | undefined,
  count: number,
): string {
  const deleted = result?.deleted ?? count;
  const unassigned = result?.devices_unassigned ?? 0;
  return `${plural(deleted, 'site')} deleted${unassigned > 0 ? `; ${plural(unassigned, 'device')} unassigned` : ''}.`;
}
