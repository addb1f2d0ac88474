import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import type { InventoryMessage } from '@outpost/contract/agent-protocol';
import type { GroupDetail, GroupFilterInput, GroupMembersResponse } from '@outpost/contract/groups';
import { startTestServer } from '../../../test/harness';
import type { TestServer } from '../../../test/harness';
import { DAY, insertDevice } from '../../../test/support/devices';
import { createEnrollmentToken, enroll, eventually, facts, onlineAgent } from '../../../test/support/live';
import {
  customFields,
  deviceFieldValues,
  deviceGroupMembers,
  devices,
  deviceTags,
  tags,
} from '../../db/schema/index';
import { createGroupMembership } from './membership.service';

// docs/product/device-sets.md#groups "Membership": a dynamic group's members follow the devices'
// inventory, enrolment, tags and custom fields, and the sweep follows time.

type Envelope<T> = { success: boolean; data: T; error?: string };

describe('dynamic group membership', () => {
  let server: TestServer;
  let admin: string;
  let tenantId: number;
  let membership: ReturnType<typeof createGroupMembership>;
  let seq = 0;

  const call = <T>(method: string, path: string, body?: unknown) =>
    server.request<Envelope<T>>(method, path, { token: admin, body });

  async function dynamicGroup(filter: GroupFilterInput): Promise<GroupDetail> {
    const res = await call<GroupDetail>('POST', '/api/customer/groups', {
      name: `Dynamic ${++seq}`,
      kind: 'dynamic',
      filter,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body.data;
  }

  async function memberIds(groupId: number): Promise<number[]> {
    const res = await call<GroupMembersResponse>('GET', `/api/customer/groups/${groupId}/members?limit=200`);
    expect(res.status).toBe(200);
    return res.body.data.data.map((m) => m.id).sort((a, b) => a - b);
  }

  /** A device enrolled with these facts over the API: its credentials and its id. */
  async function enrolledDevice(overrides: Parameters<typeof facts>[0]) {
    const token = (await createEnrollmentToken(server, admin)).token;
    const res = await enroll(server, token, facts(overrides));
    expect(res.status).toBe(200);
    const [device] = await server.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.deviceGuid, res.body.data.device_guid));
    return { creds: res.body.data, id: device!.id };
  }

  beforeAll(async () => {
    server = await startTestServer();
    tenantId = (await server.seedDemo())!.acmeTenantId;
    admin = (await server.devSignIn('admin@acme.example')).token;
    membership = createGroupMembership({ db: server.database.db });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('follows the software inventory an agent sends, comparing versions as dotted numbers', async () => {
    const group = await dynamicGroup({
      match: 'all',
      conditions: [
        {
          field: 'software',
          op: 'installed',
          name_match: 'contains',
          name: 'zip',
          version_op: 'gt',
          version: '1.9',
        },
      ],
    });
    expect(group.member_count).toBe(0);
    const token = (await createEnrollmentToken(server, admin)).token;
    const res = await enroll(
      server,
      token,
      facts({ hostname: 'pc-inventory', machineId: 'mid-pc-inventory' }),
    );
    const agent = await onlineAgent(server.url, res.body.data);
    const [device] = await server.database.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.deviceGuid, res.body.data.device_guid));
    const inventory = (messageId: string, version: string): InventoryMessage => ({
      type: 'inventory',
      messageId,
      collectedAt: new Date().toISOString(),
      software: [{ name: '7-Zip', displayName: null, publisher: 'Igor Pavlov', version, installDate: null }],
    });
    agent.send(inventory('inv-1', '1.10'));
    await agent.waitFor('ack', (m) => m.messageId === 'inv-1');
    await eventually(async () => (await memberIds(group.id)).includes(device!.id));
    agent.send(inventory('inv-2', '1.8.9'));
    await agent.waitFor('ack', (m) => m.messageId === 'inv-2');
    await eventually(async () => !(await memberIds(group.id)).includes(device!.id));
    await agent.close();
  });

  it('follows the OS version an agent reports in its hello', async () => {
    const group = await dynamicGroup({
      match: 'all',
      conditions: [{ field: 'os_version', op: 'contains', value: '24H2' }],
    });
    const device = await enrolledDevice({ hostname: 'pc-hello', osVersion: 'Windows 11 Pro 23H2' });
    expect(await memberIds(group.id)).not.toContain(device.id);
    const agent = await onlineAgent(server.url, device.creds, { osVersion: 'Windows 11 Pro 24H2' });
    await eventually(async () => (await memberIds(group.id)).includes(device.id));
    await agent.close();
  });

  it('takes a new device in at enrolment', async () => {
    const group = await dynamicGroup({
      match: 'all',
      conditions: [{ field: 'os_version', op: 'contains', value: 'Server 2022' }],
    });
    const device = await enrolledDevice({ hostname: 'srv-enrol', osVersion: 'Windows Server 2022 Standard' });
    expect(await memberIds(group.id)).toEqual([device.id]);
  });

  it('follows tags when the tags module says devices changed', async () => {
    const db = server.database.db;
    const [tag] = await db.insert(tags).values({ tenantId, name: 'Kiosk', color: 'blue' }).returning();
    const a = await insertDevice(server, { tenantId, hostname: 'kiosk-a' });
    const b = await insertDevice(server, { tenantId, hostname: 'kiosk-b' });
    const has = await dynamicGroup({
      match: 'all',
      conditions: [{ field: 'tag', op: 'has', tag_id: tag!.id }],
    });
    const hasNot = await dynamicGroup({
      match: 'all',
      conditions: [
        { field: 'tag', op: 'has_not', tag_id: tag!.id },
        { field: 'os_type', op: 'is', value: 'linux' },
      ],
    });
    expect(await memberIds(has.id)).toEqual([]);
    await db.insert(deviceTags).values({ tenantId, deviceId: a.id, tagId: tag!.id });
    await membership.devicesChanged(tenantId, [a.id]);
    expect(await memberIds(has.id)).toEqual([a.id]);
    await db.update(devices).set({ osType: 'linux' }).where(eq(devices.id, b.id));
    await membership.devicesChanged(tenantId, [a.id, b.id]);
    expect(await memberIds(hasNot.id)).toEqual([b.id]);
    await db.delete(deviceTags).where(and(eq(deviceTags.deviceId, a.id), eq(deviceTags.tagId, tag!.id)));
    await membership.devicesChanged(tenantId, [a.id]);
    expect(await memberIds(has.id)).toEqual([]);
  });

  it('follows custom field values, text and number, with the field default for devices without one', async () => {
    const db = server.database.db;
    const [ring] = await db
      .insert(customFields)
      .values({ tenantId, key: 'ring', name: 'Ring', fieldType: 'text', defaultValue: 'broad' })
      .returning();
    const [ram] = await db
      .insert(customFields)
      .values({ tenantId, key: 'ram_gb', name: 'RAM', fieldType: 'number' })
      .returning();
    const pilot = await insertDevice(server, { tenantId, hostname: 'field-pilot' });
    const plain = await insertDevice(server, { tenantId, hostname: 'field-plain' });
    await db.insert(deviceFieldValues).values([
      { tenantId, deviceId: pilot.id, fieldId: ring!.id, valueText: 'Pilot' },
      { tenantId, deviceId: pilot.id, fieldId: ram!.id, valueText: '16', valueNumber: 16 },
      { tenantId, deviceId: plain.id, fieldId: ram!.id, valueText: '9', valueNumber: 9 },
    ]);
    const pilots = await dynamicGroup({
      match: 'all',
      conditions: [{ field: 'custom_field', key: 'ring', op: 'eq', value: 'pilot' }],
    });
    const broad = await dynamicGroup({
      match: 'all',
      conditions: [
        { field: 'custom_field', key: 'ring', op: 'eq', value: 'broad' },
        { field: 'custom_field', key: 'ram_gb', op: 'not_empty' },
      ],
    });
    // 16 > 10 but '16' < '10' as text: a number field compares numbers
    const big = await dynamicGroup({
      match: 'all',
      conditions: [{ field: 'custom_field', key: 'ram_gb', op: 'gt', value: '10' }],
    });
    expect(await memberIds(pilots.id)).toEqual([pilot.id]);
    expect(await memberIds(broad.id)).toEqual([plain.id]);
    expect(await memberIds(big.id)).toEqual([pilot.id]);
    await db
      .update(deviceFieldValues)
      .set({ valueText: '32', valueNumber: 32 })
      .where(and(eq(deviceFieldValues.deviceId, plain.id), eq(deviceFieldValues.fieldId, ram!.id)));
    await membership.devicesChanged(tenantId, [plain.id]);
    expect(await memberIds(big.id)).toEqual([pilot.id, plain.id].sort((x, y) => x - y));
  });

  it('keeps when a device joined while it stays a member, and the sweep follows last seen', async () => {
    const db = server.database.db;
    const stale = await insertDevice(server, {
      tenantId,
      hostname: 'stale-1',
      lastSeen: new Date(Date.now() - 40 * DAY),
    });
    const group = await dynamicGroup({
      match: 'all',
      conditions: [{ field: 'last_seen', op: 'older_than', amount: 30, unit: 'days' }],
    });
    expect(await memberIds(group.id)).toContain(stale.id);
    const [before] = await db
      .select()
      .from(deviceGroupMembers)
      .where(eq(deviceGroupMembers.groupId, group.id));
    await membership.devicesChanged(tenantId, [stale.id]);
    const [after] = await db
      .select()
      .from(deviceGroupMembers)
      .where(eq(deviceGroupMembers.groupId, group.id));
    expect(after?.addedAt.getTime()).toBe(before?.addedAt.getTime());
    await db.update(devices).set({ lastSeen: new Date() }).where(eq(devices.id, stale.id));
    expect(await membership.sweep()).toBeGreaterThanOrEqual(1);
    expect(await memberIds(group.id)).not.toContain(stale.id);
  });

  it('matches any condition with match any', async () => {
    const mac = await insertDevice(server, { tenantId, hostname: 'any-mac', osType: 'macos' });
    const arm = await insertDevice(server, {
      tenantId,
      hostname: 'any-arm',
      osType: 'windows',
      architecture: 'arm64',
    });
    const group = await dynamicGroup({
      match: 'any',
      conditions: [
        { field: 'os_type', op: 'is', value: 'macos' },
        { field: 'architecture', op: 'is', value: 'arm64' },
      ],
    });
    expect(await memberIds(group.id)).toEqual([mac.id, arm.id]);
  });
});
