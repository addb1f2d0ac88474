import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, desc, eq } from 'drizzle-orm';
import type {
  BulkFieldValuesResponse,
  CustomField,
  DeleteCustomFieldResponse,
  DeviceFieldsResponse,
} from '@outpost/contract/custom-fields';
import { customFieldMessages } from '@outpost/contract/custom-fields';
import { messages } from '@outpost/contract/messages';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { insertDevice } from '../../../test/support/devices';
import { auditLogs, deviceFieldValues } from '../../db/schema/index';
import { addMember } from '../tenants/tenants.service';
import { DEMO } from '../demo/demo.seed';

// docs/product/device-sets.md#custom-fields: definitions, values, bulk values, scope and audit.

type Envelope<T> = { success: boolean; data: T; error?: string; code?: string };

describe('custom fields API', () => {
  let server: TestServer;
  let admin: string, tech: string, limited: string, globexAdmin: string;
  let acme: number;
  let hq: number, london: number;
  const dev = {} as Record<'hq1' | 'hq2' | 'lon1' | 'lon2', { id: number; deviceGuid: string }>;

  const call = <T>(method: string, path: string, body?: unknown, token = admin) =>
    server.request<Envelope<T>>(method, path, { token, body });
  const create = (body: Record<string, unknown>) =>
    call<CustomField>('POST', '/api/customer/custom-fields', body);
  const fieldsOf = (device: { id: number }, token = admin) =>
    call<DeviceFieldsResponse>('GET', `/api/customer/devices/${device.id}/fields`, undefined, token);
  const valueOf = (r: { body: Envelope<DeviceFieldsResponse> }, key: string) =>
    r.body.data.fields.find((f) => f.key === key);

  async function lastAudit(action: string) {
    const [row] = await server.database.db
      .select()
      .from(auditLogs)
      .where(and(eq(auditLogs.tenantId, acme), eq(auditLogs.action, action)))
      .orderBy(desc(auditLogs.id))
      .limit(1);
    return row;
  }

  beforeAll(async () => {
    server = await startTestServer();
    const demo = (await server.seedDemo())!;
    acme = demo.acmeTenantId;
    [hq, london] = demo.siteIds as [number, number];
    admin = (await server.devSignIn(DEMO.adminEmail)).token;
    tech = (await server.devSignIn(DEMO.techEmail)).token;
    globexAdmin = (await server.devSignIn('admin@globex.example')).token;
    await addMember(server.database.db, {
      tenantId: acme,
      email: 'cf-limited@acme.example',
      siteIds: [london],
    });
    limited = (await server.devSignIn('cf-limited@acme.example')).token;
    dev.hq1 = await insertDevice(server, { tenantId: acme, siteId: hq, hostname: 'cf-hq-1' });
    dev.hq2 = await insertDevice(server, { tenantId: acme, siteId: hq, hostname: 'cf-hq-2' });
    dev.lon1 = await insertDevice(server, { tenantId: acme, siteId: london, hostname: 'cf-lon-1' });
    dev.lon2 = await insertDevice(server, { tenantId: acme, siteId: london, hostname: 'cf-lon-2' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates fields of every type, canonicalising defaults, and lists them in order for every member', async () => {
    const created = await create({ key: 'asset_tag', name: 'Asset tag', field_type: 'text', required: true });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({
      key: 'asset_tag',
      required: true,
      default_value: null,
      position: 0,
    });
    const cost = await create({ key: 'cost', name: 'Cost', field_type: 'number', default_value: '010.50' });
    expect(cost.body.data.default_value).toBe('10.5');
    await create({ key: 'warranty_end', name: 'Warranty end', field_type: 'date' });
    await create({
      key: 'ring',
      name: 'Ring',
      field_type: 'select',
      options: ['pilot', 'broad'],
      default_value: 'broad',
    });
    await create({ key: 'kiosk', name: 'Kiosk', field_type: 'boolean', default_value: 'no' });
    const list = await call<CustomField[]>('GET', '/api/customer/custom-fields', undefined, tech);
    expect(list.status).toBe(200);
    expect(list.body.data.map((f) => [f.key, f.position, f.default_value])).toEqual([
      ['asset_tag', 0, null],
      ['cost', 1, '10.5'],
      ['warranty_end', 2, null],
      ['ring', 3, 'broad'],
      ['kiosk', 4, 'false'],
    ]);
    expect(await lastAudit('Create Custom Field')).toMatchObject({
      resourceType: 'custom_field',
      userEmail: DEMO.adminEmail,
    });
    // another tenant sees none of them
    expect(
      (await call<CustomField[]>('GET', '/api/customer/custom-fields', undefined, globexAdmin)).body.data,
    ).toEqual([]);
  });

  it('refuses bad definitions with 400 and the message, a taken key with 409, and users with 403', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'Bad Key', name: 'x', field_type: 'text' }, customFieldMessages.keyInvalid],
      [{ key: 'ok_key', name: '', field_type: 'text' }, customFieldMessages.nameRequired],
      [
        { key: 'ok_key', name: 'x', field_type: 'colour' },
        'Type must be one of text, number, date, select, boolean',
      ],
      [{ key: 'ok_key', name: 'x', field_type: 'select', options: [] }, customFieldMessages.optionsRequired],
      [
        { key: 'ok_key', name: 'x', field_type: 'select', options: ['a', 'a'] },
        customFieldMessages.optionDuplicate('a'),
      ],
      [
        { key: 'ok_key', name: 'x', field_type: 'number', default_value: 'twelve' },
        customFieldMessages.defaultInvalid(customFieldMessages.notANumber),
      ],
    ];
    for (const [body, message] of cases) {
      const res = await create(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    const taken = await create({ key: 'cost', name: 'Again', field_type: 'text' });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toBe(customFieldMessages.keyTaken('cost'));
    const byTech = await call(
      'POST',
      '/api/customer/custom-fields',
      { key: 'x', name: 'x', field_type: 'text' },
      tech,
    );
    expect(byTech.status).toBe(403);
    expect(byTech.body.error).toBe(messages.adminOnly);
  });

  it('shows defaults, sets, canonicalises and clears values; a required field cannot be cleared', async () => {
    const before = await fieldsOf(dev.hq1);
    expect(valueOf(before, 'ring')).toMatchObject({ value: 'broad', is_default: true });
    expect(valueOf(before, 'asset_tag')).toMatchObject({ value: null, is_default: false });
    const put = await call<DeviceFieldsResponse>(
      'PUT',
      `/api/customer/devices/${dev.hq1.deviceGuid}/fields`,
      {
        asset_tag: '  A-100 ',
        cost: '1e3',
        warranty_end: '2027-02-28',
        ring: 'pilot',
        kiosk: true,
      },
    );
    expect(put.status).toBe(200);
    expect(put.body.data.fields.map((f) => [f.key, f.value, f.is_default])).toEqual([
      ['asset_tag', 'A-100', false],
      ['cost', '1000', false],
      ['warranty_end', '2027-02-28', false],
      ['ring', 'pilot', false],
      ['kiosk', 'true', false],
    ]);
    const [stored] = await server.database.db
      .select()
      .from(deviceFieldValues)
      .where(and(eq(deviceFieldValues.deviceId, dev.hq1.id), eq(deviceFieldValues.valueText, '1000')));
    expect(stored?.valueNumber).toBe(1000);
    const audit = await lastAudit('Set Custom Fields');
    expect(audit).toMatchObject({ resourceType: 'device', resourceId: String(dev.hq1.id), siteIds: [hq] });
    expect(JSON.parse(audit!.newValues!)).toMatchObject({ cost: '1000', ring: 'pilot' });

    const cleared = await call<DeviceFieldsResponse>(
      'PUT',
      `/api/customer/devices/${dev.hq1.id}/fields`,
      { ring: null },
      tech,
    );
    expect(cleared.status).toBe(200);
    expect(valueOf(cleared, 'ring')).toMatchObject({ value: 'broad', is_default: true });

    const required = await call('PUT', `/api/customer/devices/${dev.hq1.id}/fields`, { asset_tag: null });
    expect(required.status).toBe(400);
    expect(required.body.error).toBe(customFieldMessages.requiredCannotClear('Asset tag'));
    const bad: [Record<string, unknown>, string][] = [
      [{ cost: 'abc' }, customFieldMessages.valueInvalid('Cost', customFieldMessages.notANumber)],
      [
        { warranty_end: '2027-02-30' },
        customFieldMessages.valueInvalid('Warranty end', customFieldMessages.notADate),
      ],
      [
        { ring: 'nope' },
        customFieldMessages.valueInvalid('Ring', customFieldMessages.notAnOption(['pilot', 'broad'])),
      ],
      [{ kiosk: 'maybe' }, customFieldMessages.valueInvalid('Kiosk', customFieldMessages.notABoolean)],
      [
        { asset_tag: 'x'.repeat(501) },
        customFieldMessages.valueInvalid('Asset tag', customFieldMessages.textTooLong),
      ],
      [{ nope: 'x' }, customFieldMessages.unknownField('nope')],
      [{}, customFieldMessages.noValues],
    ];
    for (const [body, message] of bad) {
      const res = await call('PUT', `/api/customer/devices/${dev.hq1.id}/fields`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toBe(message);
    }
    // nothing of the refused bodies was written
    expect(valueOf(await fieldsOf(dev.hq1), 'cost')?.value).toBe('1000');
  });

  it("answers 404 for another tenant's or another site's device, and for another tenant's field", async () => {
    expect((await fieldsOf(dev.hq1, globexAdmin)).status).toBe(404);
    expect((await fieldsOf(dev.hq1, limited)).status).toBe(404);
    expect((await fieldsOf(dev.lon1, limited)).status).toBe(200);
    const put = await call('PUT', `/api/customer/devices/${dev.hq1.id}/fields`, { cost: 1 }, limited);
    expect(put.status).toBe(404);
    const fields = (await call<CustomField[]>('GET', '/api/customer/custom-fields')).body.data;
    const cost = fields.find((f) => f.key === 'cost')!;
    expect(
      (await call('PUT', `/api/customer/custom-fields/${cost.id}`, { name: 'X' }, globexAdmin)).status,
    ).toBe(404);
    expect(
      (await call('DELETE', `/api/customer/custom-fields/${cost.id}`, undefined, globexAdmin)).status,
    ).toBe(404);
    // Globex's own fields never apply to Acme devices: its key is unknown here
    await call(
      'POST',
      '/api/customer/custom-fields',
      { key: 'globex_only', name: 'G', field_type: 'text' },
      globexAdmin,
    );
    const foreign = await call('PUT', `/api/customer/devices/${dev.hq1.id}/fields`, { globex_only: 'x' });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error).toBe(customFieldMessages.unknownField('globex_only'));
  });

  it('bulk-sets values in one audit entry; a site-limited user touches only devices of their sites', async () => {
    const body = { device_ids: [dev.lon1.id, dev.lon2.id], values: { ring: 'pilot', cost: 7 } };
    const res = await call<BulkFieldValuesResponse>('POST', '/api/customer/devices/fields', body, limited);
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ updated: 2, device_ids: [dev.lon1.id, dev.lon2.id] });
    for (const device of [dev.lon1, dev.lon2]) {
      expect(valueOf(await fieldsOf(device), 'ring')).toMatchObject({ value: 'pilot', is_default: false });
    }
    const audit = await lastAudit('Bulk Set Custom Fields');
    expect(audit?.details).toBe('Set Ring, Cost on 2 devices');
    expect(JSON.parse(audit!.newValues!)).toMatchObject({
      device_count: 2,
      values: { ring: 'pilot', cost: '7' },
    });
    expect(audit?.siteIds).toEqual([london]);

    const across = { device_ids: [dev.lon1.id, dev.hq2.id], values: { cost: 99 } };
    const refused = await call('POST', '/api/customer/devices/fields', across, limited);
    expect(refused.status).toBe(404);
    expect(refused.body.error).toBe(`Device not found: ${dev.hq2.id}`);
    // all or nothing: neither device changed
    expect(valueOf(await fieldsOf(dev.lon1), 'cost')?.value).toBe('7');
    expect(valueOf(await fieldsOf(dev.hq2), 'cost')).toMatchObject({ value: '10.5', is_default: true });
    const foreign = await call(
      'POST',
      '/api/customer/devices/fields',
      { device_ids: [dev.hq2.id], values: { cost: 1 } },
      globexAdmin,
    );
    expect(foreign.status).toBe(404);
    const none = await call('POST', '/api/customer/devices/fields', { device_ids: [], values: { cost: 1 } });
    expect(none.status).toBe(400);
    expect(none.body.error).toBe(customFieldMessages.noDevices);
  });

  it('updates definitions (an option in use cannot go), reorders, and deletes with the values', async () => {
    const fields = (await call<CustomField[]>('GET', '/api/customer/custom-fields')).body.data;
    const id = (key: string) => fields.find((f) => f.key === key)!.id;
    const inUse = await call('PUT', `/api/customer/custom-fields/${id('ring')}`, { options: ['broad'] });
    expect(inUse.status).toBe(409);
    expect(inUse.body.error).toBe(customFieldMessages.optionInUse('pilot', 2));
    const renamed = await call<CustomField>('PUT', `/api/customer/custom-fields/${id('ring')}`, {
      name: 'Update ring',
      options: ['pilot', 'broad', 'last'],
      default_value: 'last',
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: 'Update ring', default_value: 'last' });
    const badDefault = await call('PUT', `/api/customer/custom-fields/${id('cost')}`, { default_value: 'x' });
    expect(badDefault.status).toBe(400);
    expect(badDefault.body.error).toBe(customFieldMessages.defaultInvalid(customFieldMessages.notANumber));

    const order = [id('kiosk'), id('ring'), id('cost'), id('warranty_end'), id('asset_tag')];
    const reordered = await call<CustomField[]>('PUT', '/api/customer/custom-fields/reorder', {
      field_ids: order,
    });
    expect(reordered.status).toBe(200);
    expect(reordered.body.data.map((f) => f.id)).toEqual(order);
    const partial = await call('PUT', '/api/customer/custom-fields/reorder', { field_ids: order.slice(1) });
    expect(partial.status).toBe(400);
    expect(partial.body.error).toBe(customFieldMessages.reorderMismatch);

    const removed = await call<DeleteCustomFieldResponse>(
      'DELETE',
      `/api/customer/custom-fields/${id('ring')}`,
    );
    expect(removed.status).toBe(200);
    expect(removed.body.data).toEqual({ deleted: 1, values_removed: 2 });
    expect((await fieldsOf(dev.lon1)).body.data.fields.map((f) => f.key)).not.toContain('ring');
    const audit = await lastAudit('Delete Custom Field');
    expect(audit?.details).toBe('Deleted custom field Update ring (ring); values removed from 2 devices');
    expect((await call('DELETE', `/api/customer/custom-fields/${id('ring')}`)).status).toBe(404);
  });
});
