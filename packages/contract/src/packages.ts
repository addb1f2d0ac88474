import { z } from 'zod';
import { INT4_MAX, Id, IdParam, PageParam, findInputProblem } from './input';
import { listOf } from './envelope';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, MAX_STEPS_PER_PACKAGE } from './limits';
import { packageMessages as messages } from './messages';
import { FileRef, StepType, parseStepDetails } from './step-catalog';
import { StepCondition, checkStepConditions } from './step-conditions';
import { AVAILABLE_TARGET_OSES, Architecture, TargetOs, stepRunsOn, targetOsLabel } from './targets';

// docs/product/packages.md#package-list, #builder, #fields (package, step), #validation, #calls, #limits.

export { TARGET_OSES, TargetOs, ARCHITECTURES, Architecture } from './targets';

export const PACKAGE_DEFAULTS = {
  package_version: '1.0.0',
  architecture: 'x64',
  target_os: 'windows',
} as const;
export const STEP_DEFAULTS = {
  timeout_seconds: 300,
  retry_count: 0,
  fail_deployment_on_error: true,
} as const;
export const STEP_LIMITS = { minTimeout: 1, maxTimeout: 3600, minRetries: 0, maxRetries: 5 } as const;
export const PACKAGE_NAME_MAX = 200;

// The Windows temp folder's product-named subfolder (docs/product/packages.md#builder: the default working directory).
export const DEFAULT_WORKING_DIRECTORY = 'C:\\Windows\\Temp\\Outpost';

// ---- Packages ----

const packageName = z
  .string({ error: messages.packageNameRequired })
  .trim()
  .min(1, messages.packageNameRequired)
  .max(PACKAGE_NAME_MAX, `Package name must be ${PACKAGE_NAME_MAX} characters or less`);
const optionalText = (max: number, label: string) =>
  z
    .string()
    .trim()
    .max(max, `${label} must be ${max} characters or less`)
    .nullable()
    .optional()
    // Omitted stays omitted (an update leaves the field alone); empty means "none".
    .transform((v) => (v === undefined ? undefined : v || null));

const packageFields = {
  name: packageName,
  description: optionalText(2000, 'Description'),
  os_version_requirement: optionalText(100, 'OS version requirement'),
  architecture: Architecture,
  package_version: z.string().trim().min(1, 'Package version is required').max(50),
  is_template: z.boolean(),
};

/**
 * The package's owner scope: null = shared with all sites (tenant-wide), else the one site whose
 * members may change it and whose devices it is deployed to (SECURITY.md R2-5).
 */
const siteScope = Id.nullable().optional();

const tooManySteps = messages.tooManySteps(MAX_STEPS_PER_PACKAGE);

const availableTarget = z.enum(AVAILABLE_TARGET_OSES, { error: messages.targetOsWindowsOnly });

// docs/product/packages.md#calls: POST body name, description, target_os, os_version_requirement, architecture,
// package_version. The target OS is Windows (the default) or Linux; macOS is future
// (docs/decisions/2026-11-26-package-targets.md); is_template is ours.
export const PackageCreateBody = z.object({
  ...packageFields,
  target_os: availableTarget.default(PACKAGE_DEFAULTS.target_os),
  architecture: Architecture.default(PACKAGE_DEFAULTS.architecture),
  package_version: packageFields.package_version.default(PACKAGE_DEFAULTS.package_version),
  is_template: z.boolean().default(false),
  site_id: siteScope,
});
export type PackageCreateBody = z.input<typeof PackageCreateBody>;
export type PackageCreateInput = z.output<typeof PackageCreateBody>;

// docs/product/packages.md#calls: PUT takes the same body; an omitted field stays as it is. A new target_os is checked
// against the package's steps by the server (a Linux package holds no Windows-only step).
export const PackageUpdateBody = z.object({
  name: packageName,
  target_os: availableTarget.optional(),
  description: packageFields.description,
  os_version_requirement: packageFields.os_version_requirement,
  architecture: Architecture.optional(),
  package_version: packageFields.package_version.optional(),
  is_template: z.boolean().optional(),
  site_id: siteScope,
});
export type PackageUpdateBody = z.input<typeof PackageUpdateBody>;
export type PackageUpdateInput = z.output<typeof PackageUpdateBody>;

const booleanQuery = z
  .enum(['true', 'false'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true'));

export const PackageListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
  search: z.string().trim().max(200).optional(),
  target_os: TargetOs.optional(),
  is_template: booleanQuery,
});
export type PackageListQuery = z.input<typeof PackageListQuery>;
export type PackageListFilters = z.output<typeof PackageListQuery>;

export const PackageSummary = z.object({
  id: z.number().int(),
  name: z.string(),
  description: z.string().nullable(),
  target_os: TargetOs,
  os_version_requirement: z.string().nullable(),
  architecture: Architecture,
  package_version: z.string(),
  is_template: z.boolean(),
  step_count: z.number().int(),
  created_at: z.string(),
  updated_at: z.string(),
  created_by_name: z.string().nullable(),
  /** null: shared with all sites; else the site that owns the package */
  site_id: z.number().int().nullable(),
  /** who made the last change to the package or its steps (updated_at says when) */
  updated_by_name: z.string().nullable(),
  /** when the package was last deployed (the newest job made from it), null if never */
  last_deployed_at: z.string().nullable(),
  /** the package or its steps changed after the newest job made from it took its copy */
  is_changed_since_deploy: z.boolean(),
});
export type PackageSummary = z.infer<typeof PackageSummary>;

export const PackageListResponse = listOf(PackageSummary);
export type PackageListResponse = z.infer<typeof PackageListResponse>;

// ---- Steps ----

export const PackageStep = z.object({
  id: z.number().int(),
  package_id: z.number().int(),
  step_order: z.number().int(),
  step_name: z.string(),
  step_type: StepType,
  step_details: z.record(z.string(), z.unknown()),
  fail_deployment_on_error: z.boolean(),
  timeout_seconds: z.number().int(),
  retry_count: z.number().int(),
  /** docs/product/rollouts.md#step-conditions: all must hold on the device, else the step is skipped */
  conditions: z.array(StepCondition).optional(),
});
export type PackageStep = z.infer<typeof PackageStep>;

export const PackageDetail = PackageSummary.extend({ steps: z.array(PackageStep) });
export type PackageDetail = z.infer<typeof PackageDetail>;

// docs/product/packages.md#fields: step_details is sent as a JSON string; an object is accepted as well.
const stepDetailsWire = z.union([z.string(), z.record(z.string(), z.unknown())]).transform((v, ctx) => {
  let details: Record<string, unknown> | null = null;
  if (typeof v !== 'string') {
    details = v;
  } else {
    try {
      const parsed: unknown = JSON.parse(v);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
        details = parsed as Record<string, unknown>;
      }
    } catch {
      // reported below
    }
  }
  if (!details) {
    ctx.addIssue({ code: 'custom', message: messages.stepDetailsJson });
    return z.NEVER;
  }
  // The JSON text escapes what the request-wide input rules look for (a NUL is "\u0000" there).
  const problem = findInputProblem(details);
  if (problem) {
    ctx.addIssue({ code: 'custom', message: problem.message, path: problem.path.split('.') });
    return z.NEVER;
  }
  return details;
});

const stepFields = {
  step_name: z
    .string({ error: messages.stepNameRequired })
    .trim()
    .min(1, messages.stepNameRequired)
    .max(200, 'Step name must be 200 characters or less'),
  step_type: StepType,
  step_details: stepDetailsWire,
  fail_deployment_on_error: z.boolean().default(STEP_DEFAULTS.fail_deployment_on_error),
  timeout_seconds: z.coerce
    .number({ error: messages.stepTimeoutRange })
    .int(messages.stepTimeoutRange)
    .min(STEP_LIMITS.minTimeout, messages.stepTimeoutRange)
    .max(STEP_LIMITS.maxTimeout, messages.stepTimeoutRange)
    .default(STEP_DEFAULTS.timeout_seconds),
  retry_count: z.coerce
    .number({ error: messages.stepRetryRange })
    .int(messages.stepRetryRange)
    .min(STEP_LIMITS.minRetries, messages.stepRetryRange)
    .max(STEP_LIMITS.maxRetries, messages.stepRetryRange)
    .default(STEP_DEFAULTS.retry_count),
  /** checked in withCheckedDetails, so the message names the step (docs/product/rollouts.md#step-conditions) */
  conditions: z.unknown().optional(),
};

/** A step's details checked against its type's catalogue schema, and normalised. */
function withCheckedDetails<
  T extends {
    step_name: string;
    step_type: StepType;
    step_details: Record<string, unknown>;
    conditions?: unknown;
  },
>(step: T, ctx: z.RefinementCtx): Omit<T, 'conditions'> & { conditions: StepCondition[] } {
  const details = parseStepDetails(step.step_type, step.step_details);
  if (!details.success) {
    ctx.addIssue({ code: 'custom', path: ['step_details'], message: details.error });
    return z.NEVER;
  }
  const conditions = checkStepConditions(step.step_name, step.conditions);
  if (!conditions.success) {
    ctx.addIssue({ code: 'custom', path: ['conditions'], message: conditions.error });
    return z.NEVER;
  }
  return { ...step, step_details: details.data, conditions: conditions.data };
}

// docs/product/packages.md#calls: POST and PUT …/steps; body step_name, step_type, step_details (JSON string),
// fail_deployment_on_error, timeout_seconds, retry_count.
export const StepBody = z.object(stepFields).transform(withCheckedDetails);
export type StepBody = z.input<typeof StepBody>;
export type StepInput = z.output<typeof StepBody>;

export const StepReorderBody = z.object({
  stepOrders: z
    .array(z.object({ id: Id, step_order: z.number().int().min(1).max(INT4_MAX) }))
    .min(1, messages.reorderMismatch)
    .max(MAX_STEPS_PER_PACKAGE, tooManySteps),
});
export type StepReorderBody = z.infer<typeof StepReorderBody>;

export const PackageIdParams = z.object({ id: IdParam });
export const StepIdParams = z.object({
  id: IdParam,
  stepId: IdParam,
});

export const CreatedId = z.object({ id: z.number().int() });

// ---- Beyond the original product description: duplicate, save as template, export and import ----

export const PackageDuplicateBody = z.object({
  name: packageName.optional(),
  is_template: z.boolean().optional(),
  site_id: siteScope,
});
export type PackageDuplicateBody = z.input<typeof PackageDuplicateBody>;
export type PackageDuplicateInput = z.output<typeof PackageDuplicateBody>;

export const PACKAGE_EXPORT_FORMAT = 'outpost.package';
export const PACKAGE_EXPORT_VERSION = 1;

export const ExportedFileRef = FileRef.extend({ sha256: z.string().optional() });

export const PackageExport = z
  .object({
    format: z.literal(PACKAGE_EXPORT_FORMAT, { error: messages.importInvalid }),
    version: z.literal(PACKAGE_EXPORT_VERSION, { error: messages.importInvalid }),
    exported_at: z.string().optional(),
    package: z.object({
      name: packageName,
      description: packageFields.description,
      target_os: availableTarget.default(PACKAGE_DEFAULTS.target_os),
      os_version_requirement: packageFields.os_version_requirement,
      architecture: Architecture.default(PACKAGE_DEFAULTS.architecture),
      package_version: packageFields.package_version.default(PACKAGE_DEFAULTS.package_version),
      is_template: z.boolean().default(false),
    }),
    steps: z
      .array(z.object(stepFields).transform(withCheckedDetails))
      .min(1, messages.importNoSteps)
      .max(MAX_STEPS_PER_PACKAGE, tooManySteps),
    /** The files the steps refer to, with their hashes, so an import elsewhere can match them. */
    files: z.array(ExportedFileRef).max(MAX_STEPS_PER_PACKAGE, tooManySteps).default([]),
  })
  .superRefine((doc, ctx) => {
    // a Linux package holds no Windows-only step (docs/decisions/2026-11-26-package-targets.md)
    const target = doc.package.target_os;
    const wrong = doc.steps.filter((s) => !stepRunsOn(s.step_type, target)).map((s) => s.step_name);
    if (wrong.length > 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['steps'],
        message: messages.targetHasWindowsOnlySteps(targetOsLabel(target), wrong),
      });
    }
  });
export type PackageExport = z.input<typeof PackageExport>;
export type PackageImportInput = z.output<typeof PackageExport>;

/** The owner scope of an imported package (the document itself names no site: sites differ between organisations). */
export const PackageImportQuery = z.object({ site_id: IdParam.optional() });
export type PackageImportQuery = z.infer<typeof PackageImportQuery>;

/** The export as the server sends it (plain shapes: a response schema cannot hold transforms). */
export const PackageExportDocument = z.object({
  format: z.literal(PACKAGE_EXPORT_FORMAT),
  version: z.literal(PACKAGE_EXPORT_VERSION),
  exported_at: z.string(),
  package: PackageSummary.pick({
    name: true,
    description: true,
    target_os: true,
    os_version_requirement: true,
    architecture: true,
    package_version: true,
    is_template: true,
  }),
  steps: z.array(
    PackageStep.pick({
      step_name: true,
      step_type: true,
      step_details: true,
      fail_deployment_on_error: true,
      timeout_seconds: true,
      retry_count: true,
      conditions: true,
    }),
  ),
  files: z.array(ExportedFileRef),
});
export type PackageExportDocument = z.infer<typeof PackageExportDocument>;
