import {
  boolean,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { tenants } from './tenants';
import { devices } from './devices';

/** The kinds of value a custom field holds (docs/product/device-sets.md#custom-fields). */
export type CustomFieldType = 'text' | 'number' | 'date' | 'select' | 'boolean';

// docs/product/device-sets.md#custom-fields. Fields an administrator defines per tenant; key is
// the stable name used by the API and the "store output in custom field" step option. Written
// by the custom-fields module only.
export const customFields = pgTable(
  'custom_fields',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    name: text().notNull(),
    fieldType: text('field_type').$type<CustomFieldType>().notNull(),
    /** the choices of a single-select field, in order; [] for the other types */
    options: jsonb().$type<string[]>().notNull().default([]),
    required: boolean().notNull().default(false),
    /** the value a device has until one is set, in the field's canonical text form; null: none */
    defaultValue: text('default_value'),
    position: integer().notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('custom_fields_tenant_key_uq').on(t.tenantId, t.key)],
);

// One device's value of one field. value_text is the canonical text of every type (a date as
// YYYY-MM-DD, a boolean as true/false, a number as its shortest decimal); value_number is set
// for number fields only, so range filters use an index. Written by the custom-fields module only.
export const deviceFieldValues = pgTable(
  'device_field_values',
  {
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    fieldId: integer('field_id')
      .notNull()
      .references(() => customFields.id, { onDelete: 'cascade' }),
    valueText: text('value_text').notNull(),
    valueNumber: doublePrecision('value_number'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.deviceId, t.fieldId] }),
    index('device_field_values_text_idx').on(t.tenantId, t.fieldId, t.valueText, t.deviceId),
    index('device_field_values_number_idx').on(t.tenantId, t.fieldId, t.valueNumber),
  ],
);
