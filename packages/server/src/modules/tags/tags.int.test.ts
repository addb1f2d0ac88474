import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import { messages } from '@outpost/contract/messages';
import type { DeviceTag, DeviceTagsBulkResponse, Tag } from '@outpost/contract/tags';
import { tagMessages } from '@outpost/contract/tags';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { auditLogs, deviceTags } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';
import { addMember } from '../tenants/tenants.service';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

// docs/product/device-sets.md#tags: tag CRUD, bulk tagging, scope and audit, over HTTP.
describe('tags API', () => {
  let server: TestServer;
  let admin: string, tech: string, limited: string, globexAdmin: string;
  let acme: number, globex: number;
  let hq: number, london: number;
  const dev = {} as Record<'hq1' | 'hq2' | 'lon1' | 'lon2' | 'globex', number>;

  const call = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const lastAudit = async (action: string) => {
    const [row] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.tenantId, acme), eq(auditLogs.action, action)))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    return row;
  };

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    globex = demo.globexTenantId;
    [hq, london] = demo.siteIds as [number, number];
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, {
      tenantId: acme,
      email: 'tags-limited@acme.example',
      siteIds: [london],
    });
    limited = (await server.devSignIn('tags-limited@acme.example')).token;
    dev.hq1 = (await insertDevice(server, { tenantId: acme, siteId: hq, hostname: 'tagtest-hq-1' })).id;
    dev.hq2 = (await insertDevice(server, { tenantId: acme, siteId: hq, hostname: 'tagtest-hq-2' })).id;
    dev.lon1 = (await insertDevice(server, { tenantId: acme, siteId: london, hostname: 'tagtest-lon-1' })).id;
    dev.lon2 = (await insertDevice(server, { tenantId: acme, siteId: london, hostname: 'tagtest-lon-2' })).id;
    dev.globex = (await insertDevice(server, { tenantId: globex, hostname: 'tagtest-globex' })).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates, lists, renames, recolours and deletes a tag, with an audit entry for each', async () => {
    const created = await call<Tag>('POST', '/api/customer/tags', { name: '  Kiosk  ', color: 'teal' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ name: 'Kiosk', color: 'teal', device_count: 0 });
    const id = created.body.data.id;
    expect((await lastAudit('Create Tag'))?.details).toBe('Created tag Kiosk');

    const dup = await call('POST', '/api/customer/tags', { name: 'KIOSK' });
    expect(dup.status).toBe(409);
    expect(dup.body.error).toBe(tagMessages.nameTaken('Kiosk'));

    const renamed = await call<Tag>('PUT', `/api/customer/tags/${id}`, { name: 'Kiosks', color: 'pink' });
    expect(renamed.body.data).toMatchObject({ id, name: 'Kiosks', color: 'pink' });
    expect((await lastAudit('Update Tag'))?.details).toBe('Renamed tag Kiosk to Kiosks');

    const list = await call<Tag[]>('GET', '/api/customer/tags');
    expect(list.body.data.map((t) => t.name)).toContain('Kiosks');

    await call('POST', '/api/customer/devices/tags', { device_ids: [dev.hq1], add: [id] });
    const deleted = await call<{ devices_untagged: number }>('DELETE', `/api/customer/tags/${id}`);
    expect(deleted.body.data.devices_untagged).toBe(1);
    expect((await lastAudit('Delete Tag'))?.details).toBe('Deleted tag Kiosks; removed from 1 device');
    expect((await call('DELETE', `/api/customer/tags/${id}`)).status).toBe(404);
  });

  it('refuses bad names and colours with a 400 and a message', async () => {
    const cases: [unknown, string][] = [
      [{ name: '   ' }, tagMessages.nameRequired],
      [{ name: 'x'.repeat(41) }, tagMessages.nameTooLong],
      [{ name: 'tab\there' }, tagMessages.nameInvalid],
    ];
    for (const [body, message] of cases) {
      const res = await call('POST', '/api/customer/tags', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    const colour = await call('POST', '/api/customer/tags', { name: 'Ok', color: 'chartreuse' });
    expect(colour.status).toBe(400);
    expect(colour.body.error).toMatch(/Colour must be one of/);
    const empty = await call('POST', '/api/customer/devices/tags', { device_ids: [dev.hq1] });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toBe(tagMessages.nothingToChange);
  });

  it('adds tags in bulk (by id and by name, creating new ones) and removes them, with counts in the audit', async () => {
    const vip = (await call<Tag>('POST', '/api/customer/tags', { name: 'VIP', color: 'amber' })).body.data;
    const res = await call<DeviceTagsBulkResponse>('POST', '/api/customer/devices/tags', {
      device_ids: [dev.hq1, dev.hq2, dev.lon1],
      add: [vip.id, 'Finance'],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.added).toBe(6);
    expect(res.body.data.not_found).toEqual([]);
    expect(res.body.data.tags.map((t) => t.name).sort()).toEqual(['Finance', 'VIP']);
    const audit = await lastAudit('Tag Devices');
    expect(audit?.details).toMatch(/Added .*(Finance|VIP).* \(6 device tags\) on 3 devices/);
    expect(audit?.siteIds).toEqual([hq, london].sort((a, b) => a - b));

    // again: nothing new
    const again = await call<DeviceTagsBulkResponse>('POST', '/api/customer/devices/tags', {
      device_ids: [dev.hq1],
      add: ['finance'],
    });
    expect(again.body.data.added).toBe(0);

    const tags = (await call<Tag[]>('GET', '/api/customer/tags')).body.data;
    expect(tags.find((t) => t.name === 'VIP')?.device_count).toBe(3);
    const finance = tags.find((t) => t.name === 'Finance')!;
    expect(finance.color).toBe('slate');

    const removed = await call<DeviceTagsBulkResponse>('POST', '/api/customer/devices/tags', {
      device_ids: [dev.hq1, dev.hq2],
      remove: [finance.id],
    });
    expect(removed.body.data.removed).toBe(2);
    expect((await lastAudit('Tag Devices'))?.details).toBe('removed Finance (2 device tags) on 2 devices');

    const one = await call<DeviceTag[]>('GET', `/api/customer/devices/${dev.hq1}/tags`);
    expect(one.body.data.map((t) => t.name)).toEqual(['VIP']);
  });

  it("sets one device's tags, by id or guid", async () => {
    const put = await call<DeviceTag[]>('PUT', `/api/customer/devices/${dev.lon2}/tags`, {
      tags: ['Laptop', 'Remote'],
    });
    expect(put.status).toBe(200);
    expect(put.body.data.map((t) => t.name)).toEqual(['Laptop', 'Remote']);
    const keep = put.body.data.find((t) => t.name === 'Remote')!.id;
    const put2 = await call<DeviceTag[]>('PUT', `/api/customer/devices/${dev.lon2}/tags`, { tags: [keep] });
    expect(put2.body.data.map((t) => t.name)).toEqual(['Remote']);
    const cleared = await call<DeviceTag[]>('PUT', `/api/customer/devices/${dev.lon2}/tags`, { tags: [] });
    expect(cleared.body.data).toEqual([]);
  });

  it('keeps a site-limited user to their sites: counts, reads and tagging', async () => {
    const tag = (await call<Tag>('POST', '/api/customer/tags', { name: 'Scoped', color: 'blue' })).body.data;
    await call('POST', '/api/customer/devices/tags', {
      device_ids: [dev.hq1, dev.hq2, dev.lon1],
      add: [tag.id],
    });
    const mine = (await call<Tag[]>('GET', '/api/customer/tags', undefined, limited)).body.data;
    expect(mine.find((t) => t.id === tag.id)?.device_count).toBe(1);

    expect((await call('GET', `/api/customer/devices/${dev.hq1}/tags`, undefined, limited)).status).toBe(404);
    expect((await call('PUT', `/api/customer/devices/${dev.hq1}/tags`, { tags: [] }, limited)).status).toBe(
      404,
    );
    const onlyOther = await call(
      'POST',
      '/api/customer/devices/tags',
      { device_ids: [dev.hq1], remove: [tag.id] },
      limited,
    );
    expect(onlyOther.status).toBe(404);
    const mixed = await call<DeviceTagsBulkResponse>(
      'POST',
      '/api/customer/devices/tags',
      { device_ids: [dev.hq1, dev.lon1], remove: [tag.id] },
      limited,
    );
    expect(mixed.status).toBe(200);
    expect(mixed.body.data).toMatchObject({ device_ids: [dev.lon1], not_found: [dev.hq1], removed: 1 });
    const left = await server.database.db
      .select({ deviceId: deviceTags.deviceId })
      .from(deviceTags)
      .where(eq(deviceTags.tagId, tag.id));
    expect(left.map((r) => r.deviceId).sort()).toEqual([dev.hq1, dev.hq2].sort());
  });

  it('leaves renaming and deleting to administrators; members may create and tag', async () => {
    const tag = (await call<Tag>('POST', '/api/customer/tags', { name: 'Tech made' }, tech)).body.data;
    expect(tag.name).toBe('Tech made');
    const rename = await call('PUT', `/api/customer/tags/${tag.id}`, { name: 'Nope' }, tech);
    expect(rename.status).toBe(403);
    expect(rename.body.error).toBe(messages.adminOnly);
    expect((await call('DELETE', `/api/customer/tags/${tag.id}`, undefined, tech)).status).toBe(403);
    const tagged = await call(
      'POST',
      '/api/customer/devices/tags',
      { device_ids: [dev.hq1], add: [tag.id] },
      tech,
    );
    expect(tagged.status).toBe(200);
  });

  it("answers 404 for another tenant's tags and devices", async () => {
    const tag = (await call<Tag>('POST', '/api/customer/tags', { name: 'Acme only' })).body.data;
    expect((await call('PUT', `/api/customer/tags/${tag.id}`, { color: 'red' }, globexAdmin)).status).toBe(
      404,
    );
    expect((await call('DELETE', `/api/customer/tags/${tag.id}`, undefined, globexAdmin)).status).toBe(404);
    const useForeignTag = await call(
      'POST',
      '/api/customer/devices/tags',
      { device_ids: [dev.globex], add: [tag.id] },
      globexAdmin,
    );
    expect(useForeignTag.status).toBe(404);
    expect(useForeignTag.body.error).toBe(tagMessages.tagNotFound);
    const foreignDevice = await call('POST', '/api/customer/devices/tags', {
      device_ids: [dev.globex],
      add: [tag.id],
    });
    expect(foreignDevice.status).toBe(404);
    const globexTags = (await call<Tag[]>('GET', '/api/customer/tags', undefined, globexAdmin)).body.data;
    expect(globexTags.map((t) => t.id)).not.toContain(tag.id);
  });
});
