import { and, eq, inArray } from 'drizzle-orm';
import type { PackageDetail } from '@outpost/contract/packages';
import type { PolicyCreateBody, PolicyDetail } from '@outpost/contract/policies';
import type { TestServer } from '../harness';
import {
  deploymentJobs,
  deviceDeployments,
  deviceGroupMembers,
  deviceGroups,
  sites,
} from '../../src/db/schema';
import { createPolicyJobs } from '../../src/modules/deployments/policy-jobs';
import { createPolicyRunner } from '../../src/modules/policies/policy-runner';
import { recordingLog } from './engine';

// Helpers for the automation policies' integration tests (docs/product/device-sets.md#automation-policies).

export type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

/**
 * A policy runner on a server's database with the pass time chosen by the test (the injected
 * clock), creating jobs through the deployments module like the server's own timer.
 */
export function testRunner(server: TestServer) {
  return createPolicyRunner({
    db: server.database.db,
    deployments: { createForPolicy: createPolicyJobs, kick: () => undefined },
    log: recordingLog(),
  });
}

export async function insertSite(
  server: TestServer,
  tenantId: number,
  code: string,
  timezone: string | null,
) {
  const [row] = await server.database.db
    .insert(sites)
    .values({ tenantId, siteName: `Site ${code}`, siteCode: code, timezone })
    .returning({ id: sites.id });
  return row!.id;
}

export async function insertGroup(server: TestServer, tenantId: number, name: string, siteId: number | null) {
  const [row] = await server.database.db
    .insert(deviceGroups)
    .values({ tenantId, siteId, name, kind: 'static' })
    .returning({ id: deviceGroups.id });
  return row!.id;
}

export async function addMember(
  server: TestServer,
  tenantId: number,
  groupId: number,
  deviceId: number,
  addedAt?: Date,
) {
  await server.database.db
    .insert(deviceGroupMembers)
    .values({ tenantId, groupId, deviceId, ...(addedAt && { addedAt }) });
}

export async function removeMember(server: TestServer, groupId: number, deviceId: number) {
  await server.database.db
    .delete(deviceGroupMembers)
    .where(and(eq(deviceGroupMembers.groupId, groupId), eq(deviceGroupMembers.deviceId, deviceId)));
}

/** A Windows package with one step, shared or owned by a site. */
export async function createPackage(server: TestServer, token: string, name: string, siteId?: number) {
  const pkg = (
    await server.request<Envelope<PackageDetail>>('POST', '/api/customer/deployment-packages', {
      token,
      body: { name, ...(siteId !== undefined && { site_id: siteId }) },
    })
  ).body.data;
  await server.request('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
    token,
    body: { step_name: 'echo', step_type: 'CMD', step_details: JSON.stringify({ command: 'echo policy' }) },
  });
  return pkg.id;
}

export async function createPolicy(server: TestServer, token: string, body: PolicyCreateBody) {
  return server.request<Envelope<PolicyDetail>>('POST', '/api/customer/policies', { token, body });
}

/** The jobs a policy created, each with its device ids, oldest first. */
export async function jobsOf(server: TestServer, policyId: number) {
  const db = server.database.db;
  const jobs = await db
    .select({ id: deploymentJobs.id, name: deploymentJobs.name })
    .from(deploymentJobs)
    .where(eq(deploymentJobs.policyId, policyId))
    .orderBy(deploymentJobs.id);
  const rows = jobs.length
    ? await db
        .select({ jobId: deviceDeployments.jobId, deviceId: deviceDeployments.deviceId })
        .from(deviceDeployments)
        .where(
          inArray(
            deviceDeployments.jobId,
            jobs.map((j) => j.id),
          ),
        )
    : [];
  return jobs.map((j) => ({
    ...j,
    deviceIds: rows
      .filter((r) => r.jobId === j.id)
      .map((r) => r.deviceId!)
      .sort((a, b) => a - b),
  }));
}
