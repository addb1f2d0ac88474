import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { DeploymentJob } from '@outpost/contract/deployments';
import type { PackageDetail } from '@outpost/contract/packages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { devices } from '../../db/schema/index';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../../../test/support/live';
import type { AgentSocket } from '../../../test/support/live';
import { csvObjects, parseCsv } from '../../../test/support/csv';

// A deployment's per-device results as CSV (docs/product/device-sets.md#exports): GET
// /api/customer/deployments/{id} with Accept: text/csv, in the caller's site scope; another
// tenant's job is not found.

type Envelope<T> = { success: true; data: T };

describe('deployment results CSV export', () => {
  let server: TestServer;
  let admin: string;
  let globexAdmin: string;
  let londonOnly: string;
  let jobId: number;
  const agents: AgentSocket[] = [];

  const csv = (id: number, token = admin) =>
    server.request<string>('GET', `/api/customer/deployments/${id}`, {
      token,
      headers: { accept: 'text/csv' },
    });

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    const [hq, lon] = demo.siteIds as [number, number];
    admin = (await server.devSignIn('admin@acme.example')).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    const ids: number[] = [];
    for (const [hostname, siteId] of [
      ['dep-hq', hq],
      ['dep-lon', lon],
    ] as const) {
      const token = (await createEnrollmentToken(server, admin, { site_id: siteId })).token;
      const creds = (await enroll(server, token, facts({ hostname, machineId: `mid-${hostname}` }))).body
        .data;
      agents.push(await onlineAgent(server.url, creds, { hostname }));
      const [row] = await server.database.db
        .select()
        .from(devices)
        .where(eq(devices.deviceGuid, creds.device_guid));
      ids.push(row!.id);
    }
    const call = <T>(method: string, path: string, body?: unknown) =>
      server.request<Envelope<T>>(method, path, { token: admin, body });
    const pkg = (
      await call<PackageDetail>('POST', '/api/customer/deployment-packages', { name: 'Export me' })
    ).body.data;
    await call('POST', `/api/customer/deployment-packages/${pkg.id}/steps`, {
      step_name: 'echo',
      step_type: 'CMD',
      step_details: JSON.stringify({ command: 'echo hi' }),
    });
    const job = await call<DeploymentJob>('POST', '/api/customer/deployments', {
      package_id: pkg.id,
      device_ids: ids,
      job_name: '@risky name',
    });
    expect(job.status).toBe(200);
    jobId = job.body.data.id;
    await server.request('POST', '/api/customer/users', {
      token: admin,
      body: { email: 'london-export@acme.example', site_access_type: 'specific', site_ids: [lon] },
    });
    londonOnly = (await server.devSignIn('london-export@acme.example')).token;
  });
  afterAll(async () => {
    for (const a of agents) {
      await a.close();
    }
    await server?.close();
  });

  it('exports one record per device, in the caller’s scope', async () => {
    const r = await csv(jobId);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-disposition')).toMatch(
      new RegExp(`filename="deployment-${jobId}-results-`),
    );
    expect(parseCsv(r.body)[0]).toEqual([
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
    ]);
    const rows = csvObjects(r.body);
    expect(rows.map((row) => row.Hostname).sort()).toEqual(['dep-hq', 'dep-lon']);
    expect(rows[0]).toMatchObject({
      Deployment: "'@risky name",
      Package: 'Export me',
      'Reboot required': 'false',
    });
    const london = csvObjects((await csv(jobId, londonOnly)).body);
    expect(london.map((row) => row.Hostname)).toEqual(['dep-lon']);
  });

  it('answers 404 for another tenant’s deployment and for none', async () => {
    expect((await csv(jobId, globexAdmin)).status).toBe(404);
    expect((await csv(987654)).status).toBe(404);
  });
});
