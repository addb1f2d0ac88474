import type { Db } from '../../db/client';
import { csvFilename, keysetPages, mapPages } from '../../lib/csv';
import type { CsvExport } from '../../lib/csv';
import type { Scope } from '../../lib/scope';
import { deviceDeploymentsAfter } from './deployment-export.queries';
import type { JobRow } from './deployments.queries';

// A deployment's per-device results as CSV (docs/product/device-sets.md#exports), for a job the
// caller was allowed to load (deployments.service.ts exportCsv): its device rows in their scope.

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function deploymentResultsCsv(db: Db, scope: Scope, job: JobRow): CsvExport {
  const stepName = (order: number | null) =>
    order === null ? null : (job.steps.find((s) => s.stepOrder === order)?.stepName ?? null);
  const pages = keysetPages(
    (after: number | null, limit) => deviceDeploymentsAfter(db, scope, job.id, after ?? 0, limit),
    (last) => last.id,
  );
  return {
    filename: csvFilename(`deployment-${job.id}-results`),
    header: [
      'Hostname',
      'Device ID',
      'IP address',
      'Status',
      'Current step',
      'Started',
      'Completed',
      'Reboot required',
      'Error',
      'Deployment',
      'Package',
    ],
    pages: mapPages(pages, (r) => [
      r.hostname,
      r.deviceGuid,
      r.ipAddress,
      r.status,
      stepName(r.currentStepOrder),
      iso(r.startedAt),
      iso(r.completedAt),
      r.rebootRequired,
      r.errorMessage,
      job.name,
      job.packageName,
    ]),
  };
}
