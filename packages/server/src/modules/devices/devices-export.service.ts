import type { Db } from '../../db/client';
import { csvFilename, CSV_PAGE_ROWS } from '../../lib/csv';
import type { CsvExport } from '../../lib/csv';
import type { RequestContext } from '../../lib/context';
import {
  exportFieldValues,
  exportFields,
  exportPage,
  exportTags,
  tenantHasTags,
} from './devices-export.queries';
import type { ExportDevice, ExportFilters, ExportKey } from './devices-export.queries';

// The device list as CSV (docs/product/device-sets.md#exports): what the list shows with the same
// filters, in its order, with the devices' tags and a column per custom field of the tenant.
// Any member exports what they may see (the list's scope); reading changes nothing, so no audit.
// Other lists of devices (a group's members) call exportDevices with their filter.

const BASE_HEADER = [
  'Hostname',
  'Device ID',
  'Status',
  'OS',
  'OS version',
  'Architecture',
  'IP address',
  'Site',
  'Serial number',
  'Manufacturer',
  'Model',
  'Agent version',
  'Last seen',
  'Enrolled',
  'Tags',
] as const;

const baseRecord = (d: ExportDevice, tagNames: string[]) => [
  d.hostname,
  d.device_guid,
  d.status,
  d.os_type,
  d.os_version,
  d.architecture,
  d.ip_address,
  d.site_name,
  d.serial_number,
  d.manufacturer,
  d.model,
  d.agent_version,
  d.last_seen,
  d.created_at,
  tagNames.join('; '),
];

type Field = { id: number; name: string; defaultValue: string | null };

async function* devicePages(
  db: Db,
  ctx: RequestContext,
  filters: ExportFilters,
  columns: Field[],
): AsyncGenerator<unknown[][]> {
  const hasTags = await tenantHasTags(db, ctx.tenantId);
  const fetchPage = (after: ExportKey | null) => {
    const pending = exportPage(db, ctx, filters, after, CSV_PAGE_ROWS);
    // a page read ahead for an export stopped half-way must not fail unobserved
    pending.catch(() => undefined);
    return pending;
  };
  // the devices with a hostname first (null: from the start), then those without one, by id;
  // the next page is read while this one is completed and written
  let after: ExportKey | null = null;
  let next = fetchPage(after);
  for (;;) {
    const page = await next;
    const last = page.at(-1);
    const inHostPhase: boolean = after === null || after.host !== null;
    const following: ExportKey | null | 'done' =
      last !== undefined && page.length === CSV_PAGE_ROWS
        ? last.key
        : inHostPhase
          ? { host: null, id: 0 }
          : 'done';
    if (following !== 'done') {
      after = following;
      next = fetchPage(after);
    }
    if (page.length > 0) {
      const ids = page.map((d) => d.id);
      const [tagsOf, valuesOf] = await Promise.all([
        hasTags ? exportTags(db, ctx.tenantId, ids) : new Map<number, string[]>(),
        columns.length > 0
          ? exportFieldValues(db, ctx.tenantId, ids)
          : new Map<number, Map<number, string>>(),
      ]);
      yield page.map((d) => [
        ...baseRecord(d, tagsOf.get(d.id) ?? []),
        ...columns.map((c) => valuesOf.get(d.id)?.get(c.id) ?? c.defaultValue),
      ]);
    }
    if (following === 'done') {
      return;
    }
  }
}

/**
 * The export of the devices matching `filters` in the caller's scope. `name` names the file
 * (`devices`, `group-<name>`). The header is known once the tenant's custom fields are read.
 */
export async function exportDevices(
  db: Db,
  ctx: RequestContext,
  filters: ExportFilters,
  name = 'devices',
): Promise<CsvExport> {
  const columns = await exportFields(db, ctx.tenantId);
  return {
    filename: csvFilename(name),
    header: [...BASE_HEADER, ...columns.map((c) => c.name)],
    pages: devicePages(db, ctx, filters, columns),
  };
}
