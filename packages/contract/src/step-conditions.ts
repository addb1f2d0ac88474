import { z } from 'zod';
import { compareVersions } from './groups';
import { REGISTRY_HIVES } from './step-types';
import { ARCHITECTURES } from './targets';

// docs/product/rollouts.md#step-conditions — what a device checks before it runs a step. Every
// condition of a step must hold (AND); a false one skips the step ("Skipped: …" in its log), a
// condition that cannot be checked fails it.

export const MAX_CONDITIONS_PER_STEP = 10;
export const MAX_EXIT_CODES_PER_CONDITION = 20;

/** an exit code as agent-protocol.ts `ExitCode` takes it (signed 32-bit, or a Windows DWORD) */
const ExitCode = z
  .number({ error: 'Exit codes are whole numbers' })
  .int('Exit codes are whole numbers')
  .min(-2_147_483_648)
  .max(4_294_967_295);

export const CONDITION_KINDS = [
  'os_version',
  'architecture',
  'path',
  'registry',
  'process',
  'user_logged_in',
  'exit_code',
] as const;
export type ConditionKind = (typeof CONDITION_KINDS)[number];

export const CONDITION_KIND_LABELS: Record<ConditionKind, string> = {
  os_version: 'OS version',
  architecture: 'Architecture',
  path: 'File or folder',
  registry: 'Registry value',
  process: 'Process',
  user_logged_in: 'Logged-in user',
  exit_code: 'Previous step’s exit code',
};

export const conditionMessages = {
  tooMany: `A step has at most ${MAX_CONDITIONS_PER_STEP} conditions`,
  versionFormat: 'Versions are dotted numbers such as 10.0.19045',
  versionNeeded: 'Give a minimum version, a maximum version or both',
  versionOrder: 'The minimum version is above the maximum version',
  architectureNeeded: 'Choose at least one architecture',
  pathRequired: 'Path is required',
  keyPathRequired: 'Registry key path is required',
  valueRequired: 'Give the value the registry data must equal',
  processRequired: 'Process name is required',
  stepOrderRange: 'Choose the step whose exit code is checked',
  codesNeeded: 'Give at least one exit code',
  oneCode: 'Give exactly one exit code to compare with',
  tooManyCodes: `At most ${MAX_EXIT_CODES_PER_CONDITION} exit codes`,
  exitCodeFormat: 'Exit codes are whole numbers',
  unknownKind: `Condition kind must be one of ${CONDITION_KINDS.join(', ')}`,
  /** a save's message names the step and the condition (docs/product/packages.md#validation) */
  ofStep: (stepName: string, index: number | null, message: string) =>
    `Step "${stepName}"${index === null ? '' : `, condition ${index + 1}`}: ${message}`,
};

const text = (max: number, required: string) =>
  z
    .string({ error: required })
    .min(1, required)
    .max(max, `At most ${max} characters`)
    .refine((v) => v.trim() !== '', required);
const version = z
  .string({ error: conditionMessages.versionFormat })
  .regex(/^\d{1,9}(?:\.\d{1,9}){0,5}$/, conditionMessages.versionFormat);

export const OsVersionCondition = z
  .object({ kind: z.literal('os_version'), min: version.optional(), max: version.optional() })
  .refine((c) => c.min !== undefined || c.max !== undefined, conditionMessages.versionNeeded)
  .refine(
    (c) => c.min === undefined || c.max === undefined || (compareVersions(c.min, c.max) ?? 0) <= 0,
    conditionMessages.versionOrder,
  );
export const ArchitectureCondition = z.object({
  kind: z.literal('architecture'),
  /** as the inventory names them; the step runs on any of these */
  architectures: z
    .array(z.enum(ARCHITECTURES, { error: `Architecture must be one of ${ARCHITECTURES.join(', ')}` }))
    .min(1, conditionMessages.architectureNeeded)
    .max(ARCHITECTURES.length, conditionMessages.architectureNeeded),
});
export const PathCondition = z.object({
  kind: z.literal('path'),
  /** environment variables are expanded on the device (%NAME% on Windows, $NAME elsewhere) */
  path: text(1024, conditionMessages.pathRequired),
  operator: z.enum(['exists', 'not_exists']),
});
export const RegistryCondition = z
  .object({
    kind: z.literal('registry'),
    hive: z.enum(REGISTRY_HIVES),
    key_path: text(1024, conditionMessages.keyPathRequired),
    /** empty: the key's default value */
    value_name: z.string().max(255).optional(),
    operator: z.enum(['exists', 'equals']),
    /** with 'equals': the data as `reg query` prints it (REG_DWORD in decimal or 0x hex) */
    value: z.string().max(2048).optional(),
  })
  .refine((c) => c.operator !== 'equals' || c.value !== undefined, {
    message: conditionMessages.valueRequired,
    path: ['value'],
  });
export const ProcessCondition = z.object({
  kind: z.literal('process'),
  /** the program's name, as the process list shows it (app.exe); case-insensitive */
  name: text(260, conditionMessages.processRequired),
  operator: z.enum(['running', 'not_running']),
});
export const UserLoggedInCondition = z.object({
  kind: z.literal('user_logged_in'),
  operator: z.enum(['logged_in', 'not_logged_in']),
  /** empty or absent: any user; else this account (case-insensitive, DOMAIN\ prefix ignored) */
  user: z.string().max(256).optional(),
});
export const ExitCodeCondition = z
  .object({
    kind: z.literal('exit_code'),
    /** an earlier step of the package, by its order */
    step_order: z
      .number({ error: conditionMessages.stepOrderRange })
      .int(conditionMessages.stepOrderRange)
      .min(1, conditionMessages.stepOrderRange)
      .max(1000, conditionMessages.stepOrderRange),
    operator: z.enum(['equals', 'not_equals', 'in']),
    codes: z
      .array(ExitCode, { error: conditionMessages.exitCodeFormat })
      .min(1, conditionMessages.codesNeeded)
      .max(MAX_EXIT_CODES_PER_CONDITION, conditionMessages.tooManyCodes),
  })
  .refine((c) => c.operator === 'in' || c.codes.length === 1, {
    message: conditionMessages.oneCode,
    path: ['codes'],
  });

export const StepCondition = z.discriminatedUnion(
  'kind',
  [
    OsVersionCondition,
    ArchitectureCondition,
    PathCondition,
    RegistryCondition,
    ProcessCondition,
    UserLoggedInCondition,
    ExitCodeCondition,
  ],
  { error: conditionMessages.unknownKind },
);
export type StepCondition = z.infer<typeof StepCondition>;
export type StepConditionInput = z.input<typeof StepCondition>;

export const StepConditions = z.array(StepCondition).max(MAX_CONDITIONS_PER_STEP, conditionMessages.tooMany);

/**
 * A step's conditions checked for a save: the conditions, or the first problem as the product
 * says it, naming the step and the condition.
 */
export function checkStepConditions(
  stepName: string,
  value: unknown,
): { success: true; data: StepCondition[] } | { success: false; error: string } {
  if (value === undefined || value === null) {
    return { success: true, data: [] };
  }
  if (!Array.isArray(value)) {
    return { success: false, error: conditionMessages.ofStep(stepName, null, 'Conditions must be a list') };
  }
  if (value.length > MAX_CONDITIONS_PER_STEP) {
    return { success: false, error: conditionMessages.ofStep(stepName, null, conditionMessages.tooMany) };
  }
  const data: StepCondition[] = [];
  for (const [index, item] of value.entries()) {
    const problem = conditionProblem(item);
    if (problem !== null) {
      return { success: false, error: conditionMessages.ofStep(stepName, index, problem) };
    }
    data.push(StepCondition.parse(item));
  }
  return { success: true, data };
}

/** The first problem of one condition (the builder shows it under the condition), or null. */
export function conditionProblem(value: unknown): string | null {
  const parsed = StepCondition.safeParse(value);
  return parsed.success ? null : (parsed.error.issues[0]?.message ?? conditionMessages.unknownKind);
}

const OPERATOR_TEXT: Record<string, string> = {
  exists: 'exists',
  not_exists: 'does not exist',
  equals: 'equals',
  running: 'is running',
  not_running: 'is not running',
  logged_in: 'is logged in',
  not_logged_in: 'is not logged in',
  not_equals: 'is not',
  in: 'is one of',
};

/** One line saying what the condition asks (the builder's summary and the docs' wording). */
export function describeCondition(c: StepConditionInput): string {
  switch (c.kind) {
    case 'os_version':
      return c.min && c.max
        ? `OS version ${c.min} to ${c.max}`
        : c.min
          ? `OS version ${c.min} or later`
          : `OS version ${c.max ?? ''} or earlier`;
    case 'architecture':
      return `Architecture is ${c.architectures.join(' or ')}`;
    case 'path':
      return `${c.path} ${OPERATOR_TEXT[c.operator]}`;
    case 'registry': {
      const name = c.value_name ? `\\${c.value_name}` : ' (default)';
      const what = `${c.hive}\\${c.key_path}${name}`;
      return c.operator === 'equals' ? `${what} equals ${c.value ?? ''}` : `${what} exists`;
    }
    case 'process':
      return `${c.name} ${OPERATOR_TEXT[c.operator]}`;
    case 'user_logged_in':
      return `${c.user ? c.user : 'A user'} ${OPERATOR_TEXT[c.operator]}`;
    case 'exit_code':
      return `Step ${c.step_order}’s exit code ${c.operator === 'equals' ? 'is' : OPERATOR_TEXT[c.operator]} ${c.codes.join(', ')}`;
  }
}

/** The collapsed section's line: "Runs always" or "Runs when 2 conditions hold". */
export function conditionsSummary(count: number): string {
  if (count === 0) {
    return 'Runs always';
  }
  return count === 1 ? 'Runs when 1 condition holds' : `Runs when ${count} conditions hold`;
}
