import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { devices, deviceSoftware } from '../../db/schema/index';
import type { RequestContext } from '../../lib/context';
import { hashSecret } from '../agents/agent-secrets';
import { createDashboardService, RECENT_SOFTWARE_TTL_MS } from './dashboard.service';

// The dashboard's "recently discovered software" panel is reused per scope for a short time
// (dashboard.service.ts): a caller limited to some sites never gets a panel computed for another
// scope, and a new title shows up once the reuse time is over.

describe('dashboard: recently discovered software per scope', () => {
  let server: TestServer;
  let acme: number;
  let hq: number;
  let lon: number;
  let clock = 1_000_000;

  const service = () =>
    createDashboardService({
      db: server.database.db,
      devices: { recent: () => Promise.resolve([]), counts: () => Promise.resolve({ total: 0, online: 0 }) },
      tenants: { summary: () => Promise.resolve(null) },
      deployments: { countRunning: () => Promise.resolve(0) },
      now: () => clock,
    });
  const ctx = (over: Partial<RequestContext> = {}): RequestContext => ({
    sessionId: null,
    identityId: null,
    userId: 1,
    tenantId: acme,
    tenantName: 'Acme Corp',
    email: 'x@acme.example',
    name: null,
    role: 'tenant_admin',
    siteAccessType: 'all',
    siteIds: [],
    ip: '127.0.0.1',
    userAgent: null,
    ...over,
  });

  async function deviceWith(siteId: number, title: string) {
    const [d] = await server.database.db
      .insert(devices)
      .values({
        tenantId: acme,
        siteId,
        deviceGuid: crypto.randomUUID(),
        secretHash: hashSecret('x'),
        hostname: `SW-${title}`,
      })
      .returning({ id: devices.id });
    await server.database.db.insert(deviceSoftware).values({ tenantId: acme, deviceId: d!.id, name: title });
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    [hq, lon] = demo.siteIds as [number, number];
    await deviceWith(hq, 'Title At HQ');
    await deviceWith(lon, 'Title In London');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps one panel per scope, refreshed behind the requests from half its reuse time, never served past it', async () => {
    const dashboard = service();
    const names = async (c: RequestContext) => (await dashboard.stats(c)).recentSoftware.map((s) => s.name);
    const everything = await names(ctx());
    expect(everything).toEqual(expect.arrayContaining(['Title At HQ', 'Title In London']));
    // a site-limited caller right after: their sites only, not the tenant-wide panel
    expect(await names(ctx({ siteAccessType: 'specific', siteIds: [lon] }))).toEqual(
      expect.arrayContaining(['Title In London']),
    );
    expect(await names(ctx({ siteAccessType: 'specific', siteIds: [lon] }))).not.toContain('Title At HQ');
    expect(await names(ctx({ siteAccessType: 'specific', siteIds: [] }))).toEqual([]);

    await deviceWith(hq, 'Title Brand New');
    clock += RECENT_SOFTWARE_TTL_MS / 2 - 1;
    expect(await names(ctx())).not.toContain('Title Brand New');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await names(ctx())).not.toContain('Title Brand New'); // no refresh started yet
    clock += 1;
    // half its time on: still served, the next one computed behind the request
    expect(await names(ctx())).not.toContain('Title Brand New');
    await expect.poll(() => names(ctx())).toContain('Title Brand New');

    // a panel past its time is not served: the request waits for a fresh one
    await deviceWith(hq, 'Title Newer Still');
    clock += RECENT_SOFTWARE_TTL_MS;
    expect(await names(ctx())).toContain('Title Newer Still');
  });
});
