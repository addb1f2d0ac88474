import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DeploymentJob, DeploymentJobDetail } from '@outpost/contract/deployments';
import type { GroupDetail } from '@outpost/contract/groups';
import { deploymentGroupMessages } from '@outpost/contract/groups';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';
import { devices } from '../../db/schema/index';
import { addMember } from '../tenants/tenants.service';

// docs/product/device-sets.md#groups "Deploying to a group": the job records the group and the
// members the caller may see at creation (online ones); devices that join later are not in it.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('deploying to a group', () => {
  let server: TestServer;
  let admin: string, limited: string;
  let tenantId: number;
  let hq: number, lon: number;
  let packageId: number;
  const agents: AgentSocket[] = [];

  const call = <T>(method: string, path: string, token: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token, body });

  async function onlineDevice(
    siteId: number,
    hostname: string,
    osType: 'windows' | 'macos' = 'windows',
  ): Promise<number> {
    const token = (await createEnrollmentToken(server, admin, { site_id: siteId })).token;
    const creds = (await enroll(server, token, facts({ hostname, osType }))).body.data;
    agents.push(await onlineAgent(server.url, creds, { hostname, osType }));
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    return row!.id;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    tenantId = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    await addMember(server.database.db, { tenantId, email: 'deploy-lon@acme.example', siteIds: [lon] });
    limited = (await server.devSignIn('deploy-lon@acme.example')).token;
    const pkg = await call<PackageDetail>('POST', '/api/customer/deployment-packages', admin, {
      name: 'Group rollout',
    });
    packageId = pkg.body.data.id;
    await call('POST', `/api/customer/deployment-packages/${packageId}/steps`, admin, {
      step_name: 'Say hi',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'echo hi' }),
    });
  });
  afterAll(async () => {
    for (const agent of agents) {
      await agent.close();
    }
    await server?.close();
  });

  it('records the group and its online members in the caller scope at creation', async () => {
    const hqOnline = await onlineDevice(hq, 'grp-deploy-hq');
    const lonOnline = await onlineDevice(lon, 'grp-deploy-lon');
    const offline = (await insertDevice(server, { tenantId, siteId: hq, hostname: 'grp-deploy-off' })).id;
    // a Windows package does not reach a Mac: the Mac member is left out, as the offline one is
    const mac = await onlineDevice(hq, 'grp-deploy-mac', 'macos');
    const group = (
      await call<GroupDetail>('POST', '/api/customer/groups', admin, {
        name: 'Rollout ring 1',
        kind: 'static',
      })
    ).body.data;
    await call('POST', `/api/customer/groups/${group.id}/members`, admin, {
      device_ids: [hqOnline, lonOnline, offline, mac],
    });

    const res = await call<DeploymentJob>('POST', '/api/customer/deployments', admin, {
      package_id: packageId,
      group_id: group.id,
      job_name: 'To ring 1',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toMatchObject({
      total_devices: 2,
      group_id: group.id,
      group_name: 'Rollout ring 1',
    });
    const detail = (
      await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${res.body.data.id}`, admin)
    ).body.data;
    expect(detail.deployments.map((d) => d.agent_id).sort()).toEqual([hqOnline, lonOnline].sort());

    // a device that joins later is not in the job
    const later = await onlineDevice(hq, 'grp-deploy-later');
    await call('POST', `/api/customer/groups/${group.id}/members`, admin, { device_ids: [later] });
    const again = (
      await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${res.body.data.id}`, admin)
    ).body.data;
    expect(again.deployments).toHaveLength(2);

    // a site-limited caller deploys to the members of their sites only
    const mine = await call<DeploymentJob>('POST', '/api/customer/deployments', limited, {
      package_id: packageId,
      group_id: group.id,
      job_name: 'London part',
    });
    expect(mine.status, JSON.stringify(mine.body)).toBe(200);
    const mineDetail = (
      await call<DeploymentJobDetail>('GET', `/api/customer/deployments/${mine.body.data.id}`, limited)
    ).body.data;
    expect(mineDetail.deployments.map((d) => d.agent_id)).toEqual([lonOnline]);
  });

  it('refuses a group with devices as well, an unknown group, and a group with no online member', async () => {
    const group = (
      await call<GroupDetail>('POST', '/api/customer/groups', admin, { name: 'Empty', kind: 'static' })
    ).body.data;
    const both = await call('POST', '/api/customer/deployments', admin, {
      package_id: packageId,
      group_id: group.id,
      device_ids: [1],
      job_name: 'Both',
    });
    expect(both.status).toBe(400);
    expect(both.body.error).toBe(deploymentGroupMessages.devicesOrGroup);
    const empty = await call('POST', '/api/customer/deployments', admin, {
      package_id: packageId,
      group_id: group.id,
      job_name: 'Empty',
    });
    expect(empty.status).toBe(409);
    expect(empty.body.error).toBe(deploymentGroupMessages.noOnlineMembers);
    const globex = (await server.devSignIn('admin@globex.example')).token;
    const other = await call('POST', '/api/customer/deployments', globex, {
      package_id: 1,
      group_id: group.id,
      job_name: 'X',
    });
    expect(other.status).toBe(404);
  });
});
