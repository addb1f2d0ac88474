import { z } from 'zod';
import { Id } from './input';
import { packageMessages as messages } from './messages';

// spec: operations §2.3 and §5 — the seven step types, their fields, and the rules that check
// them. The builder renders its forms from this catalogue and the server validates with the
// schemas derived from it, so the UI and the API cannot disagree.

export const STEP_TYPES = ['EXE', 'MSI', 'CUSTOM_ZIP', 'REGISTRY', 'FOLDER', 'CMD', 'POWERSHELL'] as const;
export const StepType = z.enum(STEP_TYPES);
export type StepType = z.infer<typeof StepType>;

export const FIELD_TYPES = ['text', 'url', 'number', 'textarea', 'select', 'boolean', 'file'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** An uploaded file as a step refers to it (spec §3 Uploaded file). */
export const FileRef = z.object({
  id: Id,
  originalFilename: z.string().min(1),
});
export type FileRef = z.infer<typeof FileRef>;

export type FieldOption = { value: string; label: string };

/** The field shows (and counts) only while another field of the step has this value. */
export type FieldCondition =
  { field: 'source_type'; equals: 'upload' | 'url' } | { field: 'script_type'; equals: 'inline' | 'file' };

export type StepField = {
  key: string;
  label: string;
  type: FieldType;
  required: boolean;
  placeholder?: string;
  helpText?: string;
  options?: readonly FieldOption[];
  /**
   * The value a new step starts with in the builder. The schema fills it in only for optional
   * fields, so a missing required field is always reported rather than silently defaulted.
   */
  default?: string | boolean | number;
  showWhen?: FieldCondition;
  /** File fields: the extensions offered by the picker (a hint, except where a rule says so). */
  accept?: string;
};

export type StepTypeDefinition = {
  type: StepType;
  label: string;
  description: string;
  fields: readonly StepField[];
};

// Installers use 0 for success and 3010/1641 for success that needs (or started) a reboot.
export const DEFAULT_SUCCESS_EXIT_CODES = '0,3010,1641';

const opts = (...values: string[]): FieldOption[] => values.map((v) => ({ value: v, label: v }));

const SOURCE_OPTIONS: FieldOption[] = [
  { value: 'upload', label: 'Upload file' },
  { value: 'url', label: 'Download from URL' },
];

const UPLOAD: FieldCondition = { field: 'source_type', equals: 'upload' };
const FROM_URL: FieldCondition = { field: 'source_type', equals: 'url' };

/**
 * The hash a URL download must have. An http:// download can be changed by anyone on the path,
 * so it runs only with this; an https:// one may give it too (SECURITY.md "Download from URL").
 */
const downloadSha256: StepField = {
  key: 'sha256',
  label: 'Expected SHA-256',
  type: 'text',
  required: false,
  showWhen: FROM_URL,
  placeholder: '64 hexadecimal characters',
  helpText:
    'Required for an http:// URL, recommended for https://: the agent runs the download only if its SHA-256 matches.',
};

const successExitCodes: StepField = {
  key: 'success_exit_codes',
  label: 'Success Exit Codes',
  type: 'text',
  required: false,
  placeholder: DEFAULT_SUCCESS_EXIT_CODES,
  helpText: 'Comma-separated exit codes that count as success (3010 and 1641 mean a reboot is needed).',
  default: DEFAULT_SUCCESS_EXIT_CODES,
};

const workingDirectory: StepField = {
  key: 'working_directory',
  label: 'Working Directory',
  type: 'text',
  required: false,
  placeholder: 'C:\\Windows\\Temp\\Outpost',
  helpText: 'Leave empty to use the package working directory.',
};

const runAsAdmin: StepField = {
  key: 'run_as_admin',
  label: 'Run as Administrator',
  type: 'boolean',
  required: false,
  helpText: 'Run with the agent’s elevated (SYSTEM) rights.',
  default: true,
};

export const REGISTRY_HIVES = [
  'HKEY_LOCAL_MACHINE',
  'HKEY_CURRENT_USER',
  'HKEY_USERS',
  'HKEY_CLASSES_ROOT',
  'HKEY_CURRENT_CONFIG',
] as const;
export const REGISTRY_VALUE_TYPES = [
  'REG_SZ',
  'REG_DWORD',
  'REG_QWORD',
  'REG_BINARY',
  'REG_MULTI_SZ',
  'REG_EXPAND_SZ',
] as const;
export const MSI_UI_LEVELS = ['none', 'basic', 'reduced', 'full'] as const;
export const EXECUTION_POLICIES = ['Bypass', 'Unrestricted', 'RemoteSigned', 'AllSigned'] as const;

export const STEP_CATALOG: Record<StepType, StepTypeDefinition> = {
  EXE: {
    type: 'EXE',
    label: 'Install EXE',
    description: 'Run a setup program, uploaded or downloaded from a URL, with silent-install arguments.',
    fields: [
      {
        key: 'source_type',
        label: 'Source Type',
        type: 'select',
        required: true,
        options: SOURCE_OPTIONS,
        default: 'upload',
      },
      {
        key: 'file',
        label: 'Installer File',
        type: 'file',
        required: true,
        showWhen: UPLOAD,
        accept: '.exe',
        helpText: 'Uploaded as soon as you choose it.',
      },
      {
        key: 'url',
        label: 'Download URL',
        type: 'url',
        required: true,
        showWhen: FROM_URL,
        placeholder: 'https://example.com/setup.exe',
      },
      downloadSha256,
      {
        key: 'arguments',
        label: 'Arguments',
        type: 'text',
        required: false,
        placeholder: '/S /quiet /norestart',
        helpText: 'Command-line arguments for a silent install.',
      },
      workingDirectory,
      successExitCodes,
    ],
  },
  MSI: {
    type: 'MSI',
    label: 'Install MSI',
    description: 'Install a Windows Installer package with msiexec.',
    fields: [
      {
        key: 'source_type',
        label: 'Source Type',
        type: 'select',
        required: true,
        options: SOURCE_OPTIONS,
        default: 'upload',
      },
      {
        key: 'file',
        label: 'MSI File',
        type: 'file',
        required: true,
        showWhen: UPLOAD,
        accept: '.msi',
        helpText: 'Uploaded as soon as you choose it.',
      },
      {
        key: 'url',
        label: 'Download URL',
        type: 'url',
        required: true,
        showWhen: FROM_URL,
        placeholder: 'https://example.com/product.msi',
      },
      downloadSha256,
      {
        key: 'properties',
        label: 'MSI Properties',
        type: 'text',
        required: false,
        placeholder: 'ALLUSERS=1 INSTALLDIR="C:\\Program Files\\App"',
        helpText: 'Public properties passed to msiexec.',
      },
      {
        key: 'ui_level',
        label: 'UI Level',
        type: 'select',
        required: false,
        options: [
          { value: 'none', label: 'None (silent)' },
          { value: 'basic', label: 'Basic (progress only)' },
          { value: 'reduced', label: 'Reduced' },
          { value: 'full', label: 'Full' },
        ],
        default: 'none',
      },
      successExitCodes,
    ],
  },
  CUSTOM_ZIP: {
    type: 'CUSTOM_ZIP',
    label: 'Custom ZIP',
    description: 'Extract an uploaded ZIP archive and run a program from it.',
    fields: [
      {
        key: 'zip_file',
        label: 'ZIP File',
        type: 'file',
        required: true,
        accept: '.zip',
        helpText: 'Uploaded as soon as you choose it.',
      },
      {
        key: 'extract_path',
        label: 'Extract Path',
        type: 'text',
        required: false,
        placeholder: 'C:\\Windows\\Temp\\Outpost\\app',
        helpText: 'Leave empty to extract into the package working directory.',
      },
      {
        key: 'main_executable',
        label: 'Main Executable',
        type: 'text',
        required: true,
        placeholder: 'setup.exe',
        helpText: 'Path of the program to run, relative to the extract path.',
      },
      { key: 'arguments', label: 'Arguments', type: 'text', required: false, placeholder: '/silent' },
      {
        key: 'cleanup',
        label: 'Clean Up After Running',
        type: 'boolean',
        required: false,
        helpText: 'Delete the extracted files when the step ends.',
        default: true,
      },
    ],
  },
  REGISTRY: {
    type: 'REGISTRY',
    label: 'Registry',
    description: 'Create or update a registry value.',
    fields: [
      {
        key: 'hive',
        label: 'Registry Hive',
        type: 'select',
        required: true,
        options: opts(...REGISTRY_HIVES),
        default: 'HKEY_LOCAL_MACHINE',
      },
      {
        key: 'key_path',
        label: 'Key Path',
        type: 'text',
        required: true,
        placeholder: 'SOFTWARE\\Policies\\Vendor\\Product',
      },
      {
        key: 'value_name',
        label: 'Value Name',
        type: 'text',
        required: false,
        placeholder: 'DisableAutoUpdate',
        helpText: 'Leave empty to set the key’s default value.',
      },
      {
        key: 'value_type',
        label: 'Value Type',
        type: 'select',
        required: false,
        options: opts(...REGISTRY_VALUE_TYPES),
        default: 'REG_SZ',
      },
      {
        key: 'value_data',
        label: 'Value Data',
        type: 'textarea',
        required: false,
        placeholder: '1',
        helpText: 'REG_MULTI_SZ: one string per line. REG_BINARY: hex bytes such as 01 af 3c.',
      },
    ],
  },
  FOLDER: {
    type: 'FOLDER',
    label: 'Create Folder',
    description: 'Create a folder, optionally hidden and with permissions.',
    fields: [
      {
        key: 'folder_path',
        label: 'Folder Path',
        type: 'text',
        required: true,
        placeholder: 'C:\\Tools',
      },
      {
        key: 'create_parents',
        label: 'Create Parent Folders',
        type: 'boolean',
        required: false,
        default: true,
      },
      {
        key: 'permissions',
        label: 'Permissions',
        type: 'textarea',
        required: false,
        placeholder: 'BUILTIN\\Users:ReadAndExecute\nBUILTIN\\Administrators:FullControl',
        helpText: "One 'User/Group:Permission' per line.",
      },
      { key: 'hidden', label: 'Hidden Folder', type: 'boolean', required: false, default: false },
    ],
  },
  CMD: {
    type: 'CMD',
    label: 'Command',
    description: 'Run a command line through the command shell.',
    fields: [
      {
        key: 'command',
        label: 'Command',
        type: 'textarea',
        required: true,
        placeholder: 'ipconfig /flushdns',
      },
      workingDirectory,
      runAsAdmin,
      {
        key: 'wait_for_completion',
        label: 'Wait for Completion',
        type: 'boolean',
        required: false,
        helpText: 'Wait for the command to end before the next step starts.',
        default: true,
      },
    ],
  },
  POWERSHELL: {
    type: 'POWERSHELL',
    label: 'PowerShell',
    description: 'Run a PowerShell script, typed inline or uploaded as a .ps1 file.',
    fields: [
      {
        key: 'script_type',
        label: 'Script Type',
        type: 'select',
        required: true,
        options: [
          { value: 'inline', label: 'Inline script' },
          { value: 'file', label: 'Script file (.ps1)' },
        ],
        default: 'inline',
      },
      {
        key: 'script_content',
        label: 'Script Content',
        type: 'textarea',
        required: true,
        showWhen: { field: 'script_type', equals: 'inline' },
        placeholder: 'Write-Output "Hello from Outpost"',
      },
      {
        key: 'script_file',
        label: 'Script File',
        type: 'file',
        required: true,
        showWhen: { field: 'script_type', equals: 'file' },
        accept: '.ps1',
        helpText: 'A .ps1 file, uploaded as soon as you choose it.',
      },
      {
        key: 'execution_policy',
        label: 'Execution Policy',
        type: 'select',
        required: false,
        options: opts(...EXECUTION_POLICIES),
        default: 'Bypass',
      },
      runAsAdmin,
      workingDirectory,
    ],
  },
};

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

/** Labels of the required, active fields that are empty, in catalogue order (spec §5). */
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
      return z.string({ error: messages.stepFieldText(field.label) });
    case 'number':
      return z.coerce.number({ error: messages.stepFieldNumber(field.label) });
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
 * file next to a URL), required fields checked with the spec's message.
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
  // Fields whose condition is off are dropped before anything is checked (spec §5).
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
};

export type StepDetails = Record<string, unknown>;

/** Parses a step's details: the first message, in the spec's words, or the normalised details. */
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
