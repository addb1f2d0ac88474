import { boolean, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';
import type { Architecture, TargetOs } from '@outpost/contract/packages';
import type { StepType } from '@outpost/contract/step-catalog';
import type { StepCondition } from '@outpost/contract/step-conditions';
import { tenants } from './tenants';
import { users } from './users';
import { files } from './files';
import { sites } from './sites';

// docs/product/packages.md#fields. created_by_name is kept on the row so the list
// survives the creator's removal, like the audit log. site_id is the owner scope (SECURITY.md
// R2-5): null = shared with all sites; a site's packages go with the site, so a package never
// widens to all sites by its site being deleted. updated_by_name: who made the last change.
export const deploymentPackages = pgTable(
  'deployment_packages',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    tenantId: integer('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text(),
    targetOs: text('target_os').$type<TargetOs>().notNull().default('windows'),
    osVersionRequirement: text('os_version_requirement'),
    architecture: text().$type<Architecture>().notNull().default('x64'),
    packageVersion: text('package_version').notNull().default('1.0.0'),
    isTemplate: boolean('is_template').notNull().default(false),
    siteId: integer('site_id').references(() => sites.id, { onDelete: 'cascade' }),
    createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: integer('updated_by').references(() => users.id, { onDelete: 'set null' }),
    updatedByName: text('updated_by_name'),
  },
  (t) => [
    index('deployment_packages_tenant_created_idx').on(t.tenantId, t.createdAt),
    index('deployment_packages_site_idx').on(t.siteId),
  ],
);

// docs/product/packages.md#fields; step_order is 1-based and renumbered on reorder and delete.
export const packageSteps = pgTable(
  'package_steps',
  {
    id: integer().primaryKey().generatedAlwaysAsIdentity(),
    packageId: integer('package_id')
      .notNull()
      .references(() => deploymentPackages.id, { onDelete: 'cascade' }),
    stepOrder: integer('step_order').notNull(),
    stepName: text('step_name').notNull(),
    stepType: text('step_type').$type<StepType>().notNull(),
    stepDetails: jsonb('step_details').$type<Record<string, unknown>>().notNull(),
    failDeploymentOnError: boolean('fail_deployment_on_error').notNull().default(true),
    timeoutSeconds: integer('timeout_seconds').notNull().default(300),
    retryCount: integer('retry_count').notNull().default(0),
    /** docs/product/rollouts.md#step-conditions: checked on the device before the step runs */
    conditions: jsonb().$type<StepCondition[]>().notNull().default([]),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('package_steps_package_order_idx').on(t.packageId, t.stepOrder)],
);

// Which saved steps use which uploaded files: a referenced file cannot be deleted (the foreign
// key refuses it too, should a code path ever forget to ask).
export const packageStepFiles = pgTable(
  'package_step_files',
  {
    stepId: integer('step_id')
      .notNull()
      .references(() => packageSteps.id, { onDelete: 'cascade' }),
    fileId: integer('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'restrict' }),
  },
  (t) => [primaryKey({ columns: [t.stepId, t.fileId] }), index('package_step_files_file_idx').on(t.fileId)],
);
