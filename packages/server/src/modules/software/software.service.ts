import { paginate } from '@outpost/contract/envelope';
import type {
  FleetSoftwareFilters,
  FleetSoftwareResponse,
  SoftwareDevicesFilters,
  SoftwareDevicesResponse,
} from '@outpost/contract/software';
import type { Db } from '../../db/client';
import { csvFilename, keysetPages, mapPages } from '../../lib/csv';
import type { CsvExport } from '../../lib/csv';
import type { RequestContext } from '../../lib/context';
import {
  countTitleDevices,
  listTitleDevices,
  listTitles,
  titleDevicesAfter,
  versionCountsAfter,
} from './software.queries';

// The fleet's software (docs/product/device-sets.md#fleet-software): any member reads it, in
// their scope (the queries sum only the caller's sites); nothing here changes anything, so there
// is no audit entry and no admin check.

export function createSoftwareService({ db }: { db: Db }) {
  return {
    async list(ctx: RequestContext, f: FleetSoftwareFilters): Promise<FleetSoftwareResponse> {
      const { rows, total } = await listTitles(db, ctx, f);
      return { data: rows, pagination: paginate(f.page, f.limit, total) };
    },

    async devices(ctx: RequestContext, f: SoftwareDevicesFilters): Promise<SoftwareDevicesResponse> {
      const [rows, total] = await Promise.all([listTitleDevices(db, ctx, f), countTitleDevices(db, ctx, f)]);
      return { data: rows, pagination: paginate(f.page, f.limit, total) };
    },

    /** Every title and version in scope, one record each (docs/product/device-sets.md#exports). */
    exportList(ctx: RequestContext, f: Pick<FleetSoftwareFilters, 'search'>): CsvExport {
      const pages = keysetPages(
        (after: { name: string; version: string } | null, limit) =>
          versionCountsAfter(db, ctx, f.search, after, limit),
        (last) => ({ name: last.name, version: last.version }),
      );
      return {
        filename: csvFilename('software'),
        header: ['Title', 'Publisher', 'Version', 'Devices'],
        pages: mapPages(pages, (r) => [r.name, r.publisher, r.version, r.n]),
      };
    },

    /** The devices holding a title (or one version of it), one record per installed version. */
    exportDevices(ctx: RequestContext, f: Pick<SoftwareDevicesFilters, 'name' | 'version'>): CsvExport {
      const pages = keysetPages(
        (after: number | null, limit) => titleDevicesAfter(db, ctx, f, after ?? 0, limit),
        (last) => last.rowId,
      );
      return {
        filename: csvFilename(`software-${f.name}${f.version ? `-${f.version}` : ''}-devices`),
        header: ['Hostname', 'Device ID', 'Status', 'OS', 'Site', 'Title', 'Version', 'Publisher'],
        pages: mapPages(pages, (r) => [
          r.hostname,
          r.device_guid,
          r.status,
          r.os_type,
          r.site_name,
          f.name,
          r.version,
          r.publisher,
        ]),
      };
    },
  };
}

export type SoftwareService = ReturnType<typeof createSoftwareService>;
