import { z } from 'zod';
import { packageMessages as messages } from './messages';
import { FileRef, type StepField, type StepType } from './step-types';
import { STEP_CATALOG } from './step-definitions';

// Checks of a step's details against the catalogue, and the schemas derived from it.

/** Whether a field shows (and is checked) for the given details. */
export function isFieldActive(field: StepField, details: Record<string, unknown>): boolean {
  if (!field.showWhen) {
    return true;
  }
  return details[field.showWhen.field] === field.showWhen.equals;
}

function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) {
    return true;
  }
  if (typeof value === 'string') {
    return value.trim() === '';
  }
  return false;
}

/** Labels of the required, active fields that are empty, in catalogue order (docs/product/packages.md#validation). */
export function missingRequiredFields(type: StepType, details: Record<string, unknown>): string[] {
  return STEP_CATALOG[type].fields
    .filter((f) => f.required && isFieldActive(f, details) && isEmpty(details[f.key]))
    .map((f) => f.label);
}

/** The initial details of a new step in the builder. */
export function defaultStepDetails(type: StepType): Record<string, unknown> {
  const details: Record<string, unknown> = {};
  for (const f of STEP_CATALOG[type].fields) {
    if (f.default !== undefined) {
      details[f.key] = f.default;
    }
  }
  return details;
}

/** The ids of the uploaded files the active file fields of a step refer to. */
export function referencedFileIds(type: StepType, details: Record<string, unknown>): number[] {
  const ids: number[] = [];
  for (const f of STEP_CATALOG[type].fields) {
    if (f.type !== 'file' || !isFieldActive(f, details)) {
      continue;
    }
    const parsed = FileRef.safeParse(details[f.key]);
    if (parsed.success) {
      ids.push(parsed.data.id);
    }
  }
  return ids;
}

// ---- Zod schemas derived from the catalogue ----

const EXIT_CODES_RE = /^\s*-?\d+(\s*,\s*-?\d+)*\s*$/;
const SHA256_RE = /^[0-9a-fA-F]{64}$/;
const PERMISSION_LINE_RE = /^[^:]+:\s*\S.*$/;
const HEX_BYTES_RE = /^([0-9a-fA-F]{2}([\s,]+|$))*$/;

const optionValues = (field: StepField) => (field.options ?? []).map((o) => o.value);

function fieldValueSchema(field: StepField): z.ZodType {
  switch (field.type) {
    case 'text':
    case 'url':
    case 'textarea':
    case 'custom_field':
      return z.string({ error: messages.stepFieldText(field.label) });
    case 'number':
      // a blank number is no value (a required one then reads "missing"), not 0
      return z.preprocess(
        (v) => (v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v),
        z.coerce.number({ error: messages.stepFieldNumber(field.label) }).optional(),
      );
    case 'boolean':
      return z.boolean({ error: messages.stepFieldBoolean(field.label) });
    case 'select':
      // Checked against its options after the required check, so a blank select reads "missing".
      return z.string({ error: messages.stepFieldOption(field.label, optionValues(field)) });
    case 'file':
      return z.union([FileRef, z.null()], { error: messages.stepFieldFile(field.label) });
  }
}

/** Rules beyond "present": URLs, exit codes, registry data, permissions, script files. */
function checkFieldRules(type: StepType, details: Record<string, unknown>, ctx: z.RefinementCtx): void {
  for (const field of STEP_CATALOG[type].fields) {
    const value = details[field.key];
    if (!isFieldActive(field, details) || isEmpty(value)) {
      continue;
    }
    if (field.type === 'select' && typeof value === 'string' && !optionValues(field).includes(value.trim())) {
      ctx.addIssue({
        code: 'custom',
        path: [field.key],
        message: messages.stepFieldOption(field.label, optionValues(field)),
      });
    }
    if (field.type === 'url' && typeof value === 'string' && !isHttpUrl(value.trim())) {
      ctx.addIssue({ code: 'custom', path: [field.key], message: messages.stepFieldUrl(field.label) });
    }
    if (field.key === 'sha256' && typeof value === 'string' && !SHA256_RE.test(value.trim())) {
      ctx.addIssue({ code: 'custom', path: [field.key], message: messages.stepSha256Format });
    }
    if (field.type === 'number' && field.range && typeof value === 'number' && !inRange(value, field.range)) {
      const { min, max } = field.range;
      ctx.addIssue({
        code: 'custom',
        path: [field.key],
        message: messages.stepFieldRange(field.label, min, max),
      });
    }
    if (field.key === 'success_exit_codes' && typeof value === 'string' && !EXIT_CODES_RE.test(value)) {
      ctx.addIssue({ code: 'custom', path: [field.key], message: messages.stepExitCodes });
    }
    if (field.key === 'script_file' && typeof value === 'object' && value !== null) {
      const name = (value as FileRef).originalFilename;
      if (!name.toLowerCase().endsWith('.ps1')) {
        ctx.addIssue({ code: 'custom', path: [field.key], message: messages.stepScriptFileType });
      }
    }
    if (field.key === 'permissions' && typeof value === 'string') {
      const lines = value.split(/\r?\n/);
      const bad = lines.findIndex((l) => l.trim() !== '' && !PERMISSION_LINE_RE.test(l.trim()));
      if (bad >= 0) {
        ctx.addIssue({ code: 'custom', path: [field.key], message: messages.stepPermissionsLine(bad + 1) });
      }
    }
  }
  if (type === 'REGISTRY') {
    checkRegistryData(details, ctx);
  }
  checkDownloadIntegrity(details, ctx);
}

/** A URL source that is not https:// must say which bytes it expects (SECURITY.md "Download from URL"). */
function checkDownloadIntegrity(details: Record<string, unknown>, ctx: z.RefinementCtx): void {
  if (details.source_type !== 'url' || typeof details.url !== 'string') {
    return;
  }
  const url = details.url.trim();
  if (isHttpUrl(url) && !url.toLowerCase().startsWith('https://') && isEmpty(details.sha256)) {
    ctx.addIssue({ code: 'custom', path: ['sha256'], message: messages.stepHttpNeedsSha256 });
  }
}

const inRange = (n: number, range: { min: number; max: number }) =>
  Number.isInteger(n) && n >= range.min && n <= range.max;

function isHttpUrl(value: string): boolean {
  try {
    const u = new URL(value);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function checkRegistryData(details: Record<string, unknown>, ctx: z.RefinementCtx): void {
  const data = typeof details.value_data === 'string' ? details.value_data.trim() : '';
  if (data === '') {
    return;
  }
  const add = (message: string) => ctx.addIssue({ code: 'custom', path: ['value_data'], message });
  switch (details.value_type) {
    case 'REG_DWORD':
      if (!fitsUnsigned(data, 32n)) {
        add(messages.stepRegistryDword);
      }
      break;
    case 'REG_QWORD':
      if (!fitsUnsigned(data, 64n)) {
        add(messages.stepRegistryQword);
      }
      break;
    case 'REG_BINARY':
      if (!HEX_BYTES_RE.test(data)) {
        add(messages.stepRegistryBinary);
      }
      break;
    default:
      break;
  }
}

function fitsUnsigned(text: string, bits: bigint): boolean {
  if (!/^(0x[0-9a-fA-F]+|\d+)$/.test(text)) {
    return false;
  }
  const n = BigInt(text);
  return n >= 0n && n < 1n << bits;
}

/**
 * The details schema of one step type: known fields typed, unknown keys dropped, defaults of
 * optional fields filled in, fields whose condition is off removed (the agent never sees a stale
 * file next to a URL), required fields checked with the product's message.
 */
function detailsSchemaFor(type: StepType) {
  const def = STEP_CATALOG[type];
  const shape: Record<string, z.ZodType> = {};
  for (const f of def.fields) {
    shape[f.key] = fieldValueSchema(f).optional();
  }
  const checked = z
    .object(shape, { error: messages.stepDetailsJson })
    .superRefine((value, ctx) => {
      const details = value as Record<string, unknown>;
      const missing = missingRequiredFields(type, details);
      if (missing.length > 0) {
        ctx.addIssue({ code: 'custom', path: [], message: messages.requiredStepFields(missing) });
        return;
      }
      checkFieldRules(type, details, ctx);
    })
    .transform((details) => normalizeDetails(type, details as Record<string, unknown>));
  // Fields whose condition is off are dropped before anything is checked (docs/product/packages.md).
  return z.preprocess((raw) => (isPlainObject(raw) ? dropInactiveFields(type, raw) : raw), checked);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function dropInactiveFields(type: StepType, details: Record<string, unknown>): Record<string, unknown> {
  const out = { ...details };
  for (const f of STEP_CATALOG[type].fields) {
    if (!isFieldActive(f, details)) {
      delete out[f.key];
    }
  }
  return out;
}

function normalizeDetails(type: StepType, details: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of STEP_CATALOG[type].fields) {
    if (!isFieldActive(f, details)) {
      continue;
    }
    let value = details[f.key];
    if (typeof value === 'string' && f.type !== 'textarea') {
      value = value.trim();
    }
    if (isEmpty(value)) {
      if (!f.required && f.default !== undefined) {
        out[f.key] = f.default;
      }
      continue;
    }
    out[f.key] = value;
  }
  return out;
}

export const StepDetailsSchemas: Record<StepType, ReturnType<typeof detailsSchemaFor>> = {
  EXE: detailsSchemaFor('EXE'),
  MSI: detailsSchemaFor('MSI'),
  CUSTOM_ZIP: detailsSchemaFor('CUSTOM_ZIP'),
  REGISTRY: detailsSchemaFor('REGISTRY'),
  FOLDER: detailsSchemaFor('FOLDER'),
  CMD: detailsSchemaFor('CMD'),
  POWERSHELL: detailsSchemaFor('POWERSHELL'),
  REBOOT: detailsSchemaFor('REBOOT'),
  MESSAGE: detailsSchemaFor('MESSAGE'),
  WAIT: detailsSchemaFor('WAIT'),
};

export type StepDetails = Record<string, unknown>;

/** Parses a step's details: the first message, in the product's words, or the normalised details. */
export function parseStepDetails(
  type: StepType,
  details: unknown,
): { success: true; data: StepDetails } | { success: false; error: string } {
  const result = StepDetailsSchemas[type].safeParse(details);
  if (result.success) {
    return { success: true, data: result.data };
  }
  return { success: false, error: result.error.issues[0]?.message ?? messages.stepDetailsInvalid };
}
