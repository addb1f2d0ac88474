import { z } from 'zod';
import { Id, IdParam, textProblem } from './input';

// docs/product/device-sets.md#tags. Free-form, coloured labels per tenant; a name is unique in a
// tenant regardless of case.

/** The palette a tag's colour is chosen from (the web maps each to light and dark styles). */
export const TAG_COLORS = [
  'slate',
  'red',
  'orange',
  'amber',
  'green',
  'teal',
  'blue',
  'indigo',
  'violet',
  'pink',
] as const;
export const TagColor = z.enum(TAG_COLORS, { error: `Colour must be one of: ${TAG_COLORS.join(', ')}` });
export type TagColor = z.infer<typeof TagColor>;

export const TAG_NAME_MAX = 40;
/** The most tags one request may add or remove, and the most devices it may touch. */
export const TAG_BULK_MAX_TAGS = 20;
export const TAG_BULK_MAX_DEVICES = 1000;
/** The most tags a device may carry (a PUT of one device's tags). */
export const TAGS_PER_DEVICE_MAX = 50;

export const tagMessages = {
  nameRequired: 'Tag name is required',
  nameTooLong: `Tag name must be ${TAG_NAME_MAX} characters or less`,
  nameInvalid: 'Tag name contains characters that are not allowed',
  nameTaken: (name: string) => `A tag named "${name}" already exists`,
  tagNotFound: 'Tag not found',
  tagsNotFound: (ids: number[]) => `Tags not found: ${ids.join(', ')}`,
  nothingToChange: 'Give tags to add or to remove',
  devicesRequired: 'device_ids must not be empty',
} as const;

const hasControlCharacter = (v: string) =>
  [...v].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f);

/** A tag's name: trimmed, 1 to 40 characters, no control characters. */
export const TagName = z
  .string({ error: tagMessages.nameRequired })
  .trim()
  .min(1, tagMessages.nameRequired)
  .max(TAG_NAME_MAX, tagMessages.nameTooLong)
  .refine((v) => textProblem(v) === null && !hasControlCharacter(v), tagMessages.nameInvalid);

/** A tag as the API shows it; device_count is the devices carrying it in the caller's scope. */
export const Tag = z.object({
  id: z.number().int(),
  name: z.string(),
  color: TagColor,
  device_count: z.number().int(),
  created_at: z.string(),
});
export type Tag = z.infer<typeof Tag>;

/** A tag on a device (list rows, the device detail). */
export const DeviceTag = z.object({ id: z.number().int(), name: z.string(), color: TagColor });
export type DeviceTag = z.infer<typeof DeviceTag>;

export const TagListResponse = z.array(Tag);

export const TagCreateBody = z.object({ name: TagName, color: TagColor.default('slate') });
export type TagCreateBody = z.input<typeof TagCreateBody>;
export type TagCreateInput = z.output<typeof TagCreateBody>;

export const TagUpdateBody = z
  .object({ name: TagName.optional(), color: TagColor.optional() })
  .refine((b) => b.name !== undefined || b.color !== undefined, 'Give a name or a colour to change');
export type TagUpdateBody = z.input<typeof TagUpdateBody>;
export type TagUpdateInput = z.output<typeof TagUpdateBody>;

export const TagIdParams = z.object({ id: IdParam });

/**
 * POST /customer/devices/tags: add and remove tags on many devices at once. `add` takes tag ids
 * or names (a name not yet used creates the tag, colour slate); `remove` takes ids. Devices
 * outside the caller's scope are left alone and reported as not found.
 */
export const DeviceTagsBulkBody = z
  .object({
    device_ids: z.array(Id).min(1, tagMessages.devicesRequired).max(TAG_BULK_MAX_DEVICES),
    add: z
      .array(z.union([Id, TagName]))
      .max(TAG_BULK_MAX_TAGS)
      .default([]),
    remove: z.array(Id).max(TAG_BULK_MAX_TAGS).default([]),
  })
  .refine((b) => b.add.length + b.remove.length > 0, tagMessages.nothingToChange);
export type DeviceTagsBulkBody = z.input<typeof DeviceTagsBulkBody>;
export type DeviceTagsBulkInput = z.output<typeof DeviceTagsBulkBody>;

export const DeviceTagsBulkResponse = z.object({
  /** the devices in scope the request touched */
  device_ids: z.array(z.number().int()),
  /** requested devices not found in the caller's scope (left alone) */
  not_found: z.array(z.number().int()),
  /** device-tag pairs created and deleted */
  added: z.number().int(),
  removed: z.number().int(),
  /** the tags of `add`, resolved (created ones included) */
  tags: z.array(DeviceTag),
});
export type DeviceTagsBulkResponse = z.infer<typeof DeviceTagsBulkResponse>;

/** PUT /customer/devices/{id}/tags: the device's whole set of tags, by id or name. */
export const DeviceTagsPutBody = z.object({
  tags: z.array(z.union([Id, TagName])).max(TAGS_PER_DEVICE_MAX),
});
export type DeviceTagsPutBody = z.input<typeof DeviceTagsPutBody>;

export const DeviceTagsResponse = z.array(DeviceTag);
