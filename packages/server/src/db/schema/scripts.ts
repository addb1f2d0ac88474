import { sql } from 'drizzle-orm';
import {
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { ParamType, ScriptLanguage, ScriptOs } from '@outpost/contract/scripts';
import { tenants } from './tenants';
import { users } from './users';

// docs/product/scripts.md#the-library. Written by the scripts module only.

/** A parameter as stored: a secret's default sealed with the server's scripts key, never plain. */
export type StoredScriptParam = {
  name: string;
  label: string;
  type: ParamType;
  required: boolean;
  /** a non-secret default, or null */
  default: string | null;
  /** a secret's default, sealed (lib/secret-box.ts), or null */
  sealedDefault: string | null;
  options: string[];
  min: number | null;
  max: number | null;
  pattern: string | null;
};

/** A script of the tenant's library: its current version's fields. */
export const scripts = pgTable(
  'scripts',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    category: text().notNull().default(''),
    language: text().$type<ScriptLanguage>().notNull(),
    os: text().$type<ScriptOs>().notNull(),
    body: text().notNull(),
    params: jsonb().$type<StoredScriptParam[]>().notNull().default([]),
    timeoutSeconds: integer('timeout_seconds').notNull().default(300),
    /** the current version's number (1 on creation, +1 on each saved change) */
    version: integer().notNull().default(1),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedByName: text('updated_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    lastRunAt: timestamp('last_run_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('scripts_tenant_name_idx').on(t.tenantId, sql`lower(${t.name})`),
    index('scripts_tenant_category_idx').on(t.tenantId, t.category),
  ],
);

/** Every saved version of a script, whole (version 1 is the creation). */
export const scriptVersions = pgTable(
  'script_versions',
  {
    scriptId: integer('script_id')
      .notNull()
      .references(() => scripts.id, { onDelete: 'cascade' }),
    version: integer().notNull(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    category: text().notNull().default(''),
    language: text().$type<ScriptLanguage>().notNull(),
    os: text().$type<ScriptOs>().notNull(),
    body: text().notNull(),
    params: jsonb().$type<StoredScriptParam[]>().notNull().default([]),
    timeoutSeconds: integer('timeout_seconds').notNull(),
    changeNote: text('change_note'),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scriptId, t.version] })],
);
