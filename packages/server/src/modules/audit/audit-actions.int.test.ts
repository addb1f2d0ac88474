import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditActionsResponse } from '@outpost/contract/audit';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs } from '../../db/schema/index';
import { addMember, createTenant } from '../tenants/tenants.service';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

// The Action filter offers every action the log holds, not only the product's nine.
describe('GET /customer/audit/actions', () => {
  let server: TestServer;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo(); // another tenant's entries, which must never show
    const { tenant } = await createTenant(server.database.db, {
      name: 'Actions Co',
      adminEmail: 'ann@actions.example',
      adminName: 'Ann',
    });
    await addMember(server.database.db, { tenantId: tenant.id, email: 'uma@actions.example', name: 'Uma' });
    await server.database.db.insert(auditLogs).values(
      ['Create Deployment', 'Agent Cleanup', 'Create Deployment', 'Update Package'].map((action) => ({
        tenantId: tenant.id,
        userName: 'Ann',
        action,
        resourceType: 'deployment',
      })),
    );
    admin = (await server.devSignIn('ann@actions.example')).token;
    user = (await server.devSignIn('uma@actions.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists each distinct action of the tenant once, alphabetically, sign-in included', async () => {
    const res = await server.request<Envelope<AuditActionsResponse>>('GET', '/api/customer/audit/actions', {
      token: admin,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    // the two sign-ins above wrote Login entries; nothing of the demo tenant shows
    expect(res.body.data).toEqual(['Agent Cleanup', 'Create Deployment', 'Login', 'Update Package']);
  });

  it('is for administrators only', async () => {
    const res = await server.request<Envelope<unknown>>('GET', '/api/customer/audit/actions', {
      token: user,
    });
    expect(res.status).toBe(403);
  });
});
