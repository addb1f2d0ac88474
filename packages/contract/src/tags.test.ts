import { describe, expect, it } from 'vitest';
import { DeviceListQuery, deviceListMessages } from './devices';
import {
  DeviceTagsBulkBody,
  DeviceTagsPutBody,
  TAG_COLORS,
  TagCreateBody,
  TagUpdateBody,
  tagMessages,
} from './tags';

const firstError = (r: { success: boolean; error?: { issues: { message: string }[] } }) =>
  r.error?.issues[0]?.message;

describe('tag schemas', () => {
  it('trims a name and defaults the colour', () => {
    expect(TagCreateBody.parse({ name: '  Finance ' })).toEqual({ name: 'Finance', color: 'slate' });
  });

  it('refuses empty, long and control-character names, and colours off the palette', () => {
    expect(firstError(TagCreateBody.safeParse({ name: '  ' }))).toBe(tagMessages.nameRequired);
    expect(firstError(TagCreateBody.safeParse({}))).toBe(tagMessages.nameRequired);
    expect(firstError(TagCreateBody.safeParse({ name: 'x'.repeat(41) }))).toBe(tagMessages.nameTooLong);
    expect(TagCreateBody.safeParse({ name: 'x'.repeat(40) }).success).toBe(true);
    expect(firstError(TagCreateBody.safeParse({ name: 'a\u0000b' }))).toBe(tagMessages.nameInvalid);
    expect(TagCreateBody.safeParse({ name: 'ok', color: 'chartreuse' }).success).toBe(false);
    for (const color of TAG_COLORS) {
      expect(TagCreateBody.safeParse({ name: 'ok', color }).success).toBe(true);
    }
  });

  it('wants something to change in an update', () => {
    expect(TagUpdateBody.safeParse({}).success).toBe(false);
    expect(TagUpdateBody.parse({ color: 'red' })).toEqual({ color: 'red' });
  });

  it('takes tags to add by id or name and to remove by id', () => {
    expect(DeviceTagsBulkBody.parse({ device_ids: [1, 2], add: [3, ' New '] })).toEqual({
      device_ids: [1, 2],
      add: [3, 'New'],
      remove: [],
    });
    expect(firstError(DeviceTagsBulkBody.safeParse({ device_ids: [1] }))).toBe(tagMessages.nothingToChange);
    expect(firstError(DeviceTagsBulkBody.safeParse({ device_ids: [], add: [1] }))).toBe(
      tagMessages.devicesRequired,
    );
    expect(DeviceTagsBulkBody.safeParse({ device_ids: [1], remove: ['name'] }).success).toBe(false);
    expect(DeviceTagsBulkBody.safeParse({ device_ids: [0], add: [1] }).success).toBe(false);
    expect(DeviceTagsPutBody.parse({ tags: [] })).toEqual({ tags: [] });
  });
});

describe('device list set filters', () => {
  it('reads tag, group and field filters and the field columns', () => {
    const q = DeviceListQuery.parse({
      tag_id: '4',
      group_id: '5',
      field_key: 'ram_gb',
      field_value: '16',
      field_op: 'gt',
      fields: 'owner, ram_gb,owner,',
    });
    expect(q).toMatchObject({
      tag_id: 4,
      group_id: 5,
      field_key: 'ram_gb',
      field_op: 'gt',
      fields: ['owner', 'ram_gb'],
    });
  });

  it('refuses a field key without a value, a non-number range and bad keys', () => {
    expect(firstError(DeviceListQuery.safeParse({ field_key: 'owner' }))).toBe(deviceListMessages.fieldPair);
    expect(firstError(DeviceListQuery.safeParse({ field_key: 'n', field_value: 'x', field_op: 'lt' }))).toBe(
      deviceListMessages.fieldNumber,
    );
    expect(DeviceListQuery.safeParse({ field_key: 'n', field_value: '-2.5', field_op: 'lt' }).success).toBe(
      true,
    );
    expect(firstError(DeviceListQuery.safeParse({ fields: 'a b' }))).toBe(deviceListMessages.fieldKey);
    expect(firstError(DeviceListQuery.safeParse({ fields: 'a,b,c,d,e,f,g,h,i,j,k' }))).toBe(
      deviceListMessages.fieldsTooMany,
    );
  });
});
