import type {
  PackageDetail,
  PackageDuplicateInput,
  PackageExportDocument,
  PackageImportInput,
  PackageImportQuery,
} from '@outpost/contract/packages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { fileLookup } from '../files/files.service';
import { auditSiteOf, siteForNewPackage } from './package-access';
import { detailOf, loadOr404 } from './package-load';
import { addSteps } from './package-steps-write';
import { referencedFileIds, resolveImportedSteps, toExportDocument } from './package-transfer';
import { listSteps } from './packages.queries';
import { fromRow, insertPackage } from './package-insert';

/** Copies of a package: duplicate, export and import (part of the packages service). */
export function createPackageCopiesService({ db }: { db: Db }) {
  return {
    // Beyond the original product description: a copy of a package with its steps, or the same saved as a template.
    async duplicate(
      ctx: RequestContext,
      packageId: number,
      body: PackageDuplicateInput,
    ): Promise<PackageDetail> {
      return db.transaction(async (tx) => {
        const source = await loadOr404(tx, ctx, packageId);
        const siteId = await siteForNewPackage(tx, ctx, body.site_id, source.siteId);
        const isTemplate = body.is_template ?? source.isTemplate;
        const name =
          body.name ?? `${source.name} (${isTemplate && !source.isTemplate ? 'template' : 'copy'})`;
        const row = await insertPackage(tx, ctx, {
          name,
          description: source.description,
          target_os: source.targetOs === 'macos' ? undefined : source.targetOs,
          os_version_requirement: source.osVersionRequirement,
          architecture: source.architecture,
          package_version: source.packageVersion,
          is_template: isTemplate,
          siteId,
        });
        await addSteps(tx, ctx, row.id, (await listSteps(tx, packageId)).map(fromRow));
        await writeAudit(tx, ctx, {
          action: isTemplate && !source.isTemplate ? 'Save Package as Template' : 'Duplicate Package',
          resourceType: 'package',
          resourceId: row.id,
          ...auditSiteOf(siteId),
          details: `Copied package ${source.name} (id ${source.id}) to ${row.name}`,
          newValues: { site_id: siteId },
        });
        return detailOf(tx, row);
      });
    },

    async exportPackage(ctx: RequestContext, packageId: number): Promise<PackageExportDocument> {
      const row = await loadOr404(db, ctx, packageId);
      const steps = await listSteps(db, packageId);
      const files = await fileLookup.findByIds(db, ctx, referencedFileIds(steps));
      return toExportDocument(row, steps, files);
    },

    // One insert for the steps and one for their files, whatever their number (R2-6).
    async importPackage(
      ctx: RequestContext,
      doc: PackageImportInput,
      query: PackageImportQuery,
    ): Promise<PackageDetail> {
      return db.transaction(async (tx) => {
        const siteId = await siteForNewPackage(tx, ctx, query.site_id);
        const steps = await resolveImportedSteps(tx, ctx, doc);
        const row = await insertPackage(tx, ctx, { ...doc.package, siteId });
        await addSteps(tx, ctx, row.id, steps);
        await writeAudit(tx, ctx, {
          action: 'Import Package',
          resourceType: 'package',
          resourceId: row.id,
          ...auditSiteOf(siteId),
          details: `Imported package ${row.name} with ${steps.length} steps`,
          newValues: { ...doc, site_id: siteId },
        });
        return detailOf(tx, row);
      });
    },
  };
}
