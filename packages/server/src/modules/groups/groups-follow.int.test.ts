import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GroupDetail } from '@outpost/contract/groups';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';

// Dynamic groups follow the portal's own changes (docs/product/device-sets.md#groups): tagging a
// device over the API, setting a custom field's value, removing them again, each re-evaluates the
// device's membership at once, through the services as they are wired in the app.

type Envelope<T> = { success: boolean; data: T; error?: string };

describe('dynamic groups follow tags and custom fields set in the portal', () => {
  let server: TestServer;
  let admin: string;
  let device: number;
  let acme: number;

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, `/api/customer${path}`, { token: admin, body });
  const count = async (id: number) =>
    (await call<GroupDetail>('GET', `/groups/${id}`)).body.data.member_count;

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    admin = (await server.devSignIn('admin@acme.example')).token;
    acme = demo.acmeTenantId;
    device = (await insertDevice(server, { tenantId: acme, hostname: 'follow-1' })).id;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a tag put on and taken off', async () => {
    const tag = (await call<{ id: number }>('POST', '/tags', { name: 'Follow ring', color: 'blue' })).body
      .data;
    const group = (
      await call<GroupDetail>('POST', '/groups', {
        name: 'Tagged follow ring',
        kind: 'dynamic',
        filter: { match: 'all', conditions: [{ field: 'tag', op: 'has', tag_id: tag.id }] },
      })
    ).body.data;
    expect(group.member_count).toBe(0);
    expect((await call('POST', '/devices/tags', { device_ids: [device], add: [tag.id] })).status).toBe(200);
    expect(await count(group.id)).toBe(1);
    await call('PUT', `/devices/${device}/tags`, { tags: [] });
    expect(await count(group.id)).toBe(0);
  });

  it("a custom field's value set and cleared", async () => {
    const created = await call('POST', '/custom-fields', { key: 'ring', name: 'Ring', field_type: 'text' });
    expect(created.status).toBe(200);
    const group = (
      await call<GroupDetail>('POST', '/groups', {
        name: 'Ring canary',
        kind: 'dynamic',
        filter: {
          match: 'all',
          conditions: [{ field: 'custom_field', key: 'ring', op: 'eq', value: 'canary' }],
        },
      })
    ).body.data;
    expect(group.member_count).toBe(0);
    await call('PUT', `/devices/${device}/fields`, { ring: 'canary' });
    expect(await count(group.id)).toBe(1);
    await call('POST', '/devices/fields', { device_ids: [device], values: { ring: null } });
    expect(await count(group.id)).toBe(0);
  });

  it("a custom field's default changed: devices without a value follow it", async () => {
    const field = (
      await call<{ id: number }>('POST', '/custom-fields', { key: 'wave', name: 'Wave', field_type: 'text' })
    ).body.data;
    const group = (
      await call<GroupDetail>('POST', '/groups', {
        name: 'Wave pilot',
        kind: 'dynamic',
        filter: {
          match: 'all',
          conditions: [{ field: 'custom_field', key: 'wave', op: 'eq', value: 'pilot' }],
        },
      })
    ).body.data;
    expect(group.member_count).toBe(0);
    await insertDevice(server, { tenantId: acme, hostname: 'follow-2' });
    const devices = (await call<{ pagination: { total: number } }>('GET', '/devices?limit=1')).body.data
      .pagination.total;
    expect(devices).toBeGreaterThan(1);
    await call('PUT', `/devices/${device}/fields`, { wave: 'office' });
    expect((await call('PUT', `/custom-fields/${field.id}`, { default_value: 'pilot' })).status).toBe(200);
    // every device of the tenant but the one whose own value is "office"
    expect(await count(group.id)).toBe(devices - 1);
    await call('PUT', `/custom-fields/${field.id}`, { default_value: null });
    expect(await count(group.id)).toBe(0);
  });
});
