import { MAX_DEVICES_PER_JOB } from '@outpost/contract/deployments';
import type { DeploymentJob } from '@outpost/contract/deployments';
import { deviceRunsArchitecture, deviceRunsTarget } from '@outpost/contract/targets';
import { systemActor, writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import type { Scope } from '../../lib/scope';
import { packageLookup } from '../packages/packages.service';
import {
  insertJob,
  insertJobFiles,
  insertPendingDeviceDeployments,
  listPolicyJobs,
  toJob,
} from './deployments.queries';
import { snapshotSteps } from './snapshot-steps';

// Jobs an automation policy creates (docs/product/device-sets.md#automation-policies): ordinary
// deployment jobs, due at once, so the engine's offline queue, expiry and retries apply; the job
// names its policy (policy_id). Run inside the policies module's claim transaction, so a claimed
// occurrence and its jobs commit together.

/** A device the policy's target holds now. */
export type PolicyJobDevice = {
  id: number;
  siteId: number | null;
  deviceGuid: string;
  hostname: string | null;
  ipAddress: string | null;
  osType: string | null;
  architecture: string | null;
};

export type PolicyJobInput = {
  tenantId: number;
  policyId: number;
  policyName: string;
  packageId: number;
  devices: PolicyJobDevice[];
  /** "Weekly patch (Europe/Berlin, 2026-03-29 02:30)" */
  jobName: string;
};

export type PolicyJobResult = {
  jobs: { id: number; deviceIds: number[] }[];
  packageVersion: string | null;
  /** devices left out: the package is not built for them or belongs to another site */
  skipped: number;
};

/** The job(s), at most MAX_DEVICES_PER_JOB devices each; none when no device fits or the package is gone. */
export async function createPolicyJobs(tx: Executor, input: PolicyJobInput): Promise<PolicyJobResult> {
  const scope: Scope = { tenantId: input.tenantId, siteAccessType: 'all', siteIds: [] };
  const snapshot = await snapshotSteps(tx, scope, input.packageId);
  if (!snapshot || snapshot.steps.length === 0) {
    return { jobs: [], packageVersion: snapshot?.pkg.package_version ?? null, skipped: input.devices.length };
  }
  const { pkg } = snapshot;
  const fits = input.devices.filter(
    (d) =>
      (pkg.site_id === null || d.siteId === pkg.site_id) &&
      deviceRunsTarget(d.osType, pkg.target_os) &&
      deviceRunsArchitecture(d.osType, d.architecture, pkg.architecture),
  );
  const actor = systemActor({
    tenantId: input.tenantId,
    name: `Policy: ${input.policyName}`,
    ip: null,
    userAgent: null,
  });
  const jobs: PolicyJobResult['jobs'] = [];
  for (let i = 0; i < fits.length; i += MAX_DEVICES_PER_JOB) {
    const targets = fits.slice(i, i + MAX_DEVICES_PER_JOB);
    await packageLookup.assertDeployableTo(tx, scope, pkg, targets);
    const row = await insertJob(tx, {
      tenantId: input.tenantId,
      packageId: pkg.id,
      packageName: pkg.name,
      packageVersion: pkg.package_version,
      targetOs: pkg.target_os,
      packageUpdatedAt: packageLookup.updatedAtOf(pkg.id),
      name: input.jobName,
      description: `Created by the automation policy "${input.policyName}"`,
      steps: snapshot.steps,
      scheduledAt: null,
      totalDevices: targets.length,
      createdBy: null,
      createdByName: actor.name,
      policyId: input.policyId,
    });
    await insertPendingDeviceDeployments(tx, { jobId: row.id, tenantId: input.tenantId }, targets);
    await insertJobFiles(tx, row.id, snapshot.fileIds);
    await writeAudit(tx, actor, {
      action: 'Create Deployment',
      resourceType: 'deployment',
      resourceId: row.id,
      details: `${input.jobName}: ${pkg.name} to ${targets.length} device${targets.length === 1 ? '' : 's'}`,
      newValues: { package_id: pkg.id, device_ids: targets.map((t) => t.id), policy_id: input.policyId },
      siteIds: targets.map((t) => t.siteId),
    });
    jobs.push({ id: row.id, deviceIds: targets.map((t) => t.id) });
  }
  return { jobs, packageVersion: pkg.package_version, skipped: input.devices.length - fits.length };
}

/** The jobs a policy created that the caller may see, newest first (the policy is already found in scope). */
export async function policyJobs(
  ex: Executor,
  scope: Scope,
  policyId: number,
  limit: number,
): Promise<DeploymentJob[]> {
  return (await listPolicyJobs(ex, scope, policyId, limit)).map(toJob);
}
