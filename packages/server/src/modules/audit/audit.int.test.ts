import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AuditListResponse, AuditStats } from '@outpost/contract/audit';
import { adminMessages, messages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { auditLogs } from '../../db/schema/index';
import { addMember, createTenant } from '../tenants/tenants.service';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

const HOUR = 3_600_000;
const day = (d: Date) => d.toISOString().slice(0, 10);

describe('audit API: list filters and stats against a hand-made log', () => {
  let server: TestServer;
  let admin: string;
  let adminId: number;
  let userId: number;
  let userToken: string;
  const now = Date.now();

  // Ann (admin) and Uma (user) of a fresh tenant; one system entry without a user. Ann also has
  // the Login entry her sign-in writes (now).
  type Fixture = {
    key: string;
    who: 'ann' | 'uma' | null;
    action: string;
    type: string;
    hoursAgo: number;
    details?: string;
  };
  const fixtures: Fixture[] = [
    { key: 'f1', who: 'ann', action: 'Create User', type: 'user', hoursAgo: 2 },
    { key: 'f2', who: 'ann', action: 'Update User', type: 'user', hoursAgo: 3 },
    { key: 'f3', who: 'uma', action: 'Create Deployment', type: 'deployment', hoursAgo: 26 },
    {
      key: 'f4',
      who: 'uma',
      action: 'Update Package',
      type: 'package',
      hoursAgo: 50,
      details: 'Changed deploy timeout',
    },
    { key: 'f5', who: null, action: 'Create Device', type: 'device', hoursAgo: 50 },
    { key: 'f6', who: 'ann', action: 'Delete Site', type: 'site', hoursAgo: 24 * 40 },
    { key: 'f7', who: 'uma', action: 'Device Restart', type: 'device', hoursAgo: 24 * 10 },
    { key: 'f8', who: 'ann', action: 'Delete User', type: 'user', hoursAgo: 1 },
  ];
  const at = (f: Fixture) => new Date(now - f.hoursAgo * HOUR);

  const get = <T>(path: string, token = admin) => server.request<Envelope<T>>('GET', path, { token });
  const list = async (query: string) => {
    const res = await get<AuditListResponse>(`/api/customer/audit?${query}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const keysOf = (page: AuditListResponse) => page.data.map((e) => e.details ?? e.action);

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo(); // another tenant's entries, which must never show
    const { tenant, admin: ann } = await createTenant(server.database.db, {
      name: 'Audit Co',
      adminEmail: 'ann@audit.example',
      adminName: 'Ann',
    });
    adminId = ann.id;
    const uma = await addMember(server.database.db, {
      tenantId: tenant.id,
      email: 'uma@audit.example',
      name: 'Uma',
    });
    userId = uma.id;
    const people = {
      ann: { userId: ann.id, userName: 'Ann', userEmail: 'ann@audit.example', userRole: 'tenant_admin' },
      uma: { userId: uma.id, userName: 'Uma', userEmail: 'uma@audit.example', userRole: 'user' },
    };
    await server.database.db.insert(auditLogs).values(
      fixtures.map((f) => ({
        tenantId: tenant.id,
        ...(f.who ? people[f.who] : { userName: 'Agent enrolment' }),
        action: f.action,
        resourceType: f.type,
        resourceId: f.key,
        // details make each row recognisable in the assertions
        details: f.details ?? f.key,
        createdAt: at(f),
      })),
    );
    const signedIn = await server.devSignIn('ann@audit.example');
    admin = signedIn.token;
    userToken = (await server.devSignIn('uma@audit.example')).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('lists the tenant entries newest first with every field, paged', async () => {
    const all = await list('limit=100');
    // 8 fixtures + Ann's and Uma's Login entries
    expect(all.pagination).toMatchObject({ total: 10, totalPages: 1, limit: 100 });
    expect(keysOf(all)).toEqual([
      'Signed in with dev sign-in',
      'Signed in with dev sign-in',
      'f8',
      'f1',
      'f2',
      'f3',
      // same time as f4, written later: a higher id comes first
      'f5',
      'Changed deploy timeout',
      'f7',
      'f6',
    ]);
    const f4 = all.data.find((e) => e.resource_id === 'f4')!;
    expect(f4).toMatchObject({
      action: 'Update Package',
      user_id: userId,
      user_name: 'Uma',
      user_email: 'uma@audit.example',
      user_role: 'user',
      resource_type: 'package',
      old_values: null,
      new_values: null,
    });
    const login = all.data.find((e) => e.action === 'Login' && e.user_id === adminId)!;
    expect(login).toMatchObject({
      resource_type: 'user',
      resource_id: String(adminId),
      ip_address: '127.0.0.1',
    });
    expect(login.user_agent).toBeTruthy();

    const page2 = await list('limit=3&page=2');
    expect(page2.pagination).toMatchObject({ total: 10, totalPages: 4 });
    expect(keysOf(page2)).toEqual(['f1', 'f2', 'f3']);
    const defaults = await list('');
    expect(defaults.pagination.limit).toBe(20);
  });

  it('filters by action, resource type, user, search and dates', async () => {
    expect(keysOf(await list('action=create%20user'))).toEqual(['f1']);
    expect(keysOf(await list('action=Create%20User&resource_type=user'))).toEqual(['f1']);
    expect(keysOf(await list('resource_type=device'))).toEqual(['f5', 'f7']);
    expect(keysOf(await list(`user_id=${userId}&resource_type=`))).toEqual([
      'Signed in with dev sign-in',
      'f3',
      'Changed deploy timeout',
      'f7',
    ]);
    expect(keysOf(await list('search=DEPLOY'))).toEqual(['f3', 'Changed deploy timeout']);
    expect(keysOf(await list('search=uma%40audit&action=Device%20Restart'))).toEqual(['f7']);

    const f7Day = day(at(fixtures.find((f) => f.key === 'f7')!));
    expect(keysOf(await list(`start_date=${f7Day}&end_date=${f7Day}`))).toEqual(['f7']);
    const until = new Date(now - 100 * HOUR).toISOString();
    expect(keysOf(await list(`end_date=${encodeURIComponent(until)}`))).toEqual(['f7', 'f6']);
    const since = new Date(now - 3 * HOUR).toISOString();
    expect(keysOf(await list(`start_date=${encodeURIComponent(since)}&user_id=${adminId}`))).toEqual([
      'Signed in with dev sign-in',
      'f8',
      'f1',
      'f2',
    ]);

    const inverted = await get('/api/customer/audit?start_date=2026-02-02&end_date=2026-02-01');
    expect(inverted.status).toBe(400);
    expect(inverted.body.error).toBe(adminMessages.dateRangeInverted);
    const badDate = await get('/api/customer/audit?start_date=yesterday');
    expect(badDate.status).toBe(400);
    expect(badDate.body.error).toBe(adminMessages.dateInvalid);
    const tooMany = await get('/api/customer/audit?limit=101');
    expect(tooMany.status).toBe(400);
  });

  it('summarises the last 30 days and the last day', async () => {
    const res = await get<AuditStats>('/api/customer/audit/stats');
    expect(res.status).toBe(200);
    const stats = res.body.data;
    expect(stats.period_days).toBe(30);
    // In 30 days: f1 f2 f3 f4 f5 f7 f8 and two Logins (f6 is 40 days old).
    expect(stats.summary).toEqual({
      total_actions: 9,
      create_actions: 3,
      update_actions: 2,
      active_users: 2,
    });
    expect(stats.top_users).toEqual([
      {
        user_id: adminId,
        user_name: 'Ann',
        user_email: 'ann@audit.example',
        user_role: 'tenant_admin',
        action_count: 4,
      },
      {
        user_id: userId,
        user_name: 'Uma',
        user_email: 'uma@audit.example',
        user_role: 'user',
        action_count: 4,
      },
    ]);
    // By UTC day, newest first: the fixtures' days, each with its count and distinct users.
    const inWindow = [
      ...fixtures.filter((f) => f.hoursAgo < 30 * 24).map((f) => ({ date: day(at(f)), who: f.who })),
      { date: day(new Date()), who: 'ann' },
      { date: day(new Date()), who: 'uma' },
    ];
    const expected = [...new Set(inWindow.map((e) => e.date))]
      .sort()
      .reverse()
      .map((date) => {
        const entries = inWindow.filter((e) => e.date === date);
        return {
          date,
          activity_count: entries.length,
          unique_users: new Set(entries.map((e) => e.who).filter(Boolean)).size,
        };
      });
    expect(stats.activity_by_day).toEqual(expected);

    const lastDay = (await get<AuditStats>('/api/customer/audit/stats?days=1')).body.data;
    expect(lastDay.period_days).toBe(1);
    // f8, f1, f2 and both Logins
    expect(lastDay.summary).toEqual({
      total_actions: 5,
      create_actions: 1,
      update_actions: 1,
      active_users: 2,
    });
    expect((await get('/api/customer/audit/stats?days=0')).status).toBe(400);
  });

  it('is for administrators only, and entries cannot be changed or deleted through the API', async () => {
    for (const path of ['/api/customer/audit', '/api/customer/audit/stats']) {
      const res = await get(path, userToken);
      expect(res.status).toBe(403);
      expect(res.body.error).toBe(messages.adminOnly);
    }
    const all = await list('limit=1');
    const id = all.data[0]!.id;
    for (const method of ['PUT', 'PATCH', 'DELETE']) {
      const res = await server.request(method, `/api/customer/audit/${id}`, { token: admin, body: {} });
      expect(res.status, method).toBe(404);
    }
    expect((await server.request('DELETE', '/api/customer/audit', { token: admin })).status).toBe(404);
  });
});
