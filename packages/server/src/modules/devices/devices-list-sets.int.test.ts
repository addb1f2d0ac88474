import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceListResponse } from '@outpost/contract/devices';
import { deviceListMessages } from '@outpost/contract/devices';
import type { Tag } from '@outpost/contract/tags';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { customFields, deviceFieldValues, deviceGroupMembers, deviceGroups } from '../../db/schema/index';
import { DEMO } from '../demo/demo.seed';
import { addMember } from '../tenants/tenants.service';
import { listDevices } from './devices-list.queries';

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

// docs/product/device-sets.md#device-list-filters: the device list by tag, group and custom
// field, its totals, and the tags and fields on its rows. Groups' and fields' rows are written
// straight to the database (their modules write them in the app).
describe('device list: tag, group and custom field filters', () => {
  let server: TestServer;
  let admin: string, limited: string, globexAdmin: string;
  let acme: number, globex: number, hq: number, london: number;
  const ids: Record<string, number> = {};
  let tag: Tag;
  let groupId: number, globexGroupId: number;

  const call = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const list = async (query: string, token = admin) => {
    const res = await call<DeviceListResponse>(
      'GET',
      `/api/customer/devices?limit=100&${query}`,
      undefined,
      token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  };
  const hostnames = (d: DeviceListResponse) => d.data.map((r) => r.hostname);

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    globex = demo.globexTenantId;
    [hq, london] = demo.siteIds as [number, number];
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, {
      tenantId: acme,
      email: 'sets-limited@acme.example',
      siteIds: [london],
    });
    limited = (await server.devSignIn('sets-limited@acme.example')).token;
    for (const [name, siteId] of [
      ['set-a', hq],
      ['set-b', hq],
      ['set-c', london],
      ['set-d', london],
    ] as const) {
      ids[name] = (await insertDevice(server, { tenantId: acme, siteId, hostname: name })).id;
    }
    ids['set-globex'] = (await insertDevice(server, { tenantId: globex, hostname: 'set-globex' })).id;

    tag = (await call<Tag>('POST', '/api/customer/tags', { name: 'Lab', color: 'violet' })).body.data;
    await call('POST', '/api/customer/devices/tags', {
      device_ids: [ids['set-a'], ids['set-c']],
      add: [tag.id, 'Zeta'],
    });

    const db = server.database.db;
    const [group] = await db
      .insert(deviceGroups)
      .values({ tenantId: acme, name: 'Servers', kind: 'static' })
      .returning({ id: deviceGroups.id });
    groupId = group!.id;
    const [gg] = await db
      .insert(deviceGroups)
      .values({ tenantId: globex, name: 'Globex', kind: 'static' })
      .returning({ id: deviceGroups.id });
    globexGroupId = gg!.id;
    await db.insert(deviceGroupMembers).values([
      { groupId, deviceId: ids['set-b']!, tenantId: acme },
      { groupId, deviceId: ids['set-d']!, tenantId: acme },
      { groupId: globexGroupId, deviceId: ids['set-globex'], tenantId: globex },
    ]);

    const [owner, ram] = await db
      .insert(customFields)
      .values([
        { tenantId: acme, key: 'owner', name: 'Owner', fieldType: 'text', defaultValue: 'IT' },
        { tenantId: acme, key: 'ram_gb', name: 'RAM', fieldType: 'number' },
      ])
      .returning({ id: customFields.id });
    const [gOwner] = await db
      .insert(customFields)
      .values({ tenantId: globex, key: 'owner', name: 'Owner', fieldType: 'text' })
      .returning({ id: customFields.id });
    await db.insert(deviceFieldValues).values([
      { tenantId: acme, deviceId: ids['set-a']!, fieldId: owner!.id, valueText: 'Finance' },
      { tenantId: acme, deviceId: ids['set-d']!, fieldId: owner!.id, valueText: 'Finance' },
      { tenantId: acme, deviceId: ids['set-a']!, fieldId: ram!.id, valueText: '8', valueNumber: 8 },
      { tenantId: acme, deviceId: ids['set-b']!, fieldId: ram!.id, valueText: '32', valueNumber: 32 },
      { tenantId: globex, deviceId: ids['set-globex'], fieldId: gOwner!.id, valueText: 'Finance' },
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('filters by tag, with the total of the filter, and shows each row its tags', async () => {
    const page = await list(`tag_id=${tag.id}`);
    expect(hostnames(page)).toEqual(['set-a', 'set-c']);
    expect(page.pagination.total).toBe(2);
    expect(page.data[0]!.tags?.map((t) => t.name)).toEqual(['Lab', 'Zeta']);
    expect(page.data[0]!.tags?.[0]).toMatchObject({ id: tag.id, color: 'violet' });
    const plain = await list('search=set-');
    expect(plain.data.find((r) => r.hostname === 'set-b')?.tags).toEqual([]);
    // combined with another filter, and paged
    const inLondon = await list(`tag_id=${tag.id}&site_id=${london}`);
    expect(hostnames(inLondon)).toEqual(['set-c']);
    expect(inLondon.pagination.total).toBe(1);
    const paged = await call<DeviceListResponse>(
      'GET',
      `/api/customer/devices?limit=1&page=2&tag_id=${tag.id}`,
    );
    expect(paged.body.data.data.map((r) => r.hostname)).toEqual(['set-c']);
    expect(paged.body.data.pagination.total).toBe(2);
  });

  it('filters by group membership', async () => {
    const page = await list(`group_id=${groupId}`);
    expect(hostnames(page)).toEqual(['set-b', 'set-d']);
    expect(page.pagination.total).toBe(2);
    expect(hostnames(await list(`group_id=${groupId}&search=set-b`))).toEqual(['set-b']);
  });

  it('filters by a custom field value, and by a number field below or above a value', async () => {
    expect(hostnames(await list('field_key=owner&field_value=Finance'))).toEqual(['set-a', 'set-d']);
    expect(hostnames(await list('field_key=ram_gb&field_op=gt&field_value=10'))).toEqual(['set-b']);
    expect(hostnames(await list('field_key=ram_gb&field_op=lt&field_value=10'))).toEqual(['set-a']);
    const none = await list('field_key=nosuch&field_value=x');
    expect(none.data).toEqual([]);
    expect(none.pagination.total).toBe(0);
    expect(hostnames(await list(`field_key=owner&field_value=Finance&tag_id=${tag.id}`))).toEqual(['set-a']);
    // a device without a value shows the default, and is found by it (as a group's filter finds it)
    const byDefault = await list('field_key=owner&field_value=IT&search=set-');
    expect(hostnames(byDefault)).toEqual(['set-b', 'set-c']);
    expect(byDefault.pagination.total).toBe(2);
    expect(hostnames(await list('field_key=owner&field_value=IT&search=set-', limited))).toEqual(['set-c']);
    expect(hostnames(await list('field_key=ram_gb&field_op=lt&field_value=10&search=set-'))).toEqual([
      'set-a',
    ]);
  });

  it('returns the custom fields asked for as columns, defaults included', async () => {
    const page = await list('search=set-&fields=owner,ram_gb,unknown');
    const a = page.data.find((r) => r.hostname === 'set-a')!;
    const c = page.data.find((r) => r.hostname === 'set-c')!;
    expect(a.fields).toEqual({ owner: 'Finance', ram_gb: '8', unknown: null });
    expect(c.fields).toEqual({ owner: 'IT', ram_gb: null, unknown: null });
    expect((await list('search=set-')).data[0]!.fields).toBeUndefined();
  });

  it('refuses bad filters with a 400 and a message', async () => {
    const cases: [string, string][] = [
      ['field_key=owner', deviceListMessages.fieldPair],
      ['field_key=ram_gb&field_op=gt&field_value=ten', deviceListMessages.fieldNumber],
      ['field_key=bad key&field_value=1', deviceListMessages.fieldKey],
      ['field_key=owner&field_value=x&field_op=near', 'field_op'],
      ['tag_id=abc', 'tag_id'],
      ['group_id=0', 'group_id'],
    ];
    for (const [query, message] of cases) {
      const res = await call('GET', `/api/customer/devices?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.body.error, query).toContain(message);
    }
  });

  it("keeps the filters to the caller's scope and tenant", async () => {
    const mine = await list(`tag_id=${tag.id}`, limited);
    expect(hostnames(mine)).toEqual(['set-c']);
    expect(mine.pagination.total).toBe(1);
    expect(hostnames(await list(`group_id=${groupId}`, limited))).toEqual(['set-d']);
    expect(hostnames(await list('field_key=owner&field_value=Finance', limited))).toEqual(['set-d']);
    // another tenant's tag, group or field names nothing of theirs
    expect((await list(`tag_id=${tag.id}`, globexAdmin)).data).toEqual([]);
    expect((await list(`group_id=${groupId}`, globexAdmin)).data).toEqual([]);
    expect(hostnames(await list('field_key=owner&field_value=Finance', globexAdmin))).toEqual(['set-globex']);
    expect((await list(`group_id=${globexGroupId}`)).data).toEqual([]);
  });

  it('reads a large set by walking the list in order (and counts it joined), with the same rows and total as a small one', async () => {
    const scope = { tenantId: acme, siteAccessType: 'all' as const, siteIds: [] };
    const db = server.database.db;
    for (const extra of [
      { tag_id: tag.id },
      { group_id: groupId },
      { field_key: 'owner', field_value: 'Finance' },
      // with other filters the total is counted over the devices, not the set's size
      { tag_id: tag.id, site_id: london },
      { group_id: groupId, site_id: hq },
      { field_key: 'owner', field_value: 'Finance', tag_id: tag.id },
    ]) {
      const f = { page: 1, limit: 1, search: undefined, os_type: undefined, ...extra };
      for (const page of [1, 2, 3]) {
        const small = await listDevices(db, scope, { ...f, page });
        const large = await listDevices(db, scope, { ...f, page }, { smallSetRows: 0 });
        expect(
          large.rows.map((r) => r.hostname),
          JSON.stringify(extra),
        ).toEqual(small.rows.map((r) => r.hostname));
        expect(large.total).toBe(small.total);
      }
    }
  });
});
