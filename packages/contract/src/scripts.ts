import { z } from 'zod';
import { Id, IdParam, PageParam } from './input';

// The script library (docs/product/scripts.md): scripts with a language, a target OS, a body and
// typed parameters, every saved change kept as a version. Secret parameters' values are sealed at
// rest on the server and never returned (`has_default` says one is set).

export const SCRIPT_LANGUAGES = ['powershell', 'cmd', 'bash', 'sh', 'zsh', 'python'] as const;
export const ScriptLanguage = z.enum(SCRIPT_LANGUAGES, { error: 'Choose a language' });
export type ScriptLanguage = z.infer<typeof ScriptLanguage>;
export const SCRIPT_LANGUAGE_LABELS: Record<ScriptLanguage, string> = {
  powershell: 'PowerShell',
  cmd: 'Command Prompt (cmd)',
  bash: 'Bash',
  sh: 'sh',
  zsh: 'zsh',
  python: 'Python',
};

export const SCRIPT_OS = ['windows', 'macos', 'linux', 'any'] as const;
export const ScriptOs = z.enum(SCRIPT_OS, { error: 'Choose a target OS' });
export type ScriptOs = z.infer<typeof ScriptOs>;

/** The languages a target OS offers: cmd only on Windows, the POSIX shells not on it; PowerShell means pwsh off Windows. */
export const LANGUAGES_BY_OS: Record<ScriptOs, readonly ScriptLanguage[]> = {
  windows: ['powershell', 'cmd', 'python'],
  macos: ['bash', 'sh', 'zsh', 'python', 'powershell'],
  linux: ['bash', 'sh', 'zsh', 'python', 'powershell'],
  any: ['python', 'powershell'],
};

export const PARAM_TYPES = ['text', 'number', 'boolean', 'select', 'secret'] as const;
export const ParamType = z.enum(PARAM_TYPES);
export type ParamType = z.infer<typeof ParamType>;

/** A parameter reaches the script as the environment variable OUTPOST_<NAME> (never in its text). */
export const PARAM_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]{0,47}$/;
export const paramEnvName = (name: string) => `OUTPOST_${name.toUpperCase()}`;

export const SCRIPT_LIMITS = {
  nameMax: 120,
  descriptionMax: 2_000,
  categoryMax: 60,
  bodyMaxBytes: 256 * 1024,
  paramsMax: 20,
  paramValueMax: 4_000,
  selectOptionsMax: 50,
  /** a run's timeout, seconds */
  timeoutMin: 5,
  timeoutMax: 24 * 3600,
  timeoutDefault: 300,
  /** output kept per device: the first and the last half of this many bytes */
  outputKeptBytes: 256 * 1024,
  /** devices in one run */
  runDevicesMax: 10_000,
} as const;

/** A parameter as a script defines it. A secret's default is write-only (see ScriptParamView). */
export const ScriptParamInput = z
  .object({
    name: z
      .string()
      .regex(PARAM_NAME_PATTERN, 'A parameter name starts with a letter and has letters, digits or _'),
    label: z.string().trim().max(120).default(''),
    type: ParamType,
    required: z.boolean().default(false),
    /** text, number (as text), 'true'/'false', one of options; a secret's new value; null: none */
    default: z.string().max(SCRIPT_LIMITS.paramValueMax).nullable().default(null),
    /** select: the choices */
    options: z.array(z.string().trim().min(1).max(200)).max(SCRIPT_LIMITS.selectOptionsMax).default([]),
    /** number: inclusive bounds */
    min: z.number().finite().nullable().default(null),
    max: z.number().finite().nullable().default(null),
    /** text: a regular expression the value must match */
    pattern: z.string().max(200).nullable().default(null),
    /** secret: keep the stored default when true and `default` is null */
    keep_secret: z.boolean().optional(),
  })
  .strict();
export type ScriptParamInput = z.infer<typeof ScriptParamInput>;

/** A parameter as the API returns it: a secret's default never appears, only whether one is set. */
export const ScriptParamView = z.object({
  name: z.string(),
  label: z.string(),
  type: ParamType,
  required: z.boolean(),
  default: z.string().nullable(),
  has_default: z.boolean(),
  options: z.array(z.string()),
  min: z.number().nullable(),
  max: z.number().nullable(),
  pattern: z.string().nullable(),
});
export type ScriptParamView = z.infer<typeof ScriptParamView>;

export const ScriptInput = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(SCRIPT_LIMITS.nameMax),
    description: z.string().trim().max(SCRIPT_LIMITS.descriptionMax).default(''),
    category: z.string().trim().max(SCRIPT_LIMITS.categoryMax).default(''),
    language: ScriptLanguage,
    os: ScriptOs,
    body: z.string().min(1, 'The script is empty'),
    params: z.array(ScriptParamInput).max(SCRIPT_LIMITS.paramsMax).default([]),
    /** default timeout of a run, seconds */
    timeout_seconds: z
      .number()
      .int()
      .min(SCRIPT_LIMITS.timeoutMin)
      .max(SCRIPT_LIMITS.timeoutMax)
      .default(SCRIPT_LIMITS.timeoutDefault),
    /** a note on what changed, kept with the version */
    change_note: z.string().trim().max(500).optional(),
  })
  .strict();
export type ScriptInput = z.infer<typeof ScriptInput>;

export type ScriptSummary = {
  id: number;
  name: string;
  description: string;
  category: string;
  language: ScriptLanguage;
  os: ScriptOs;
  version: number;
  params_count: number;
  updated_at: string;
  updated_by_name: string | null;
  last_run_at: string | null;
};

export type ScriptDetail = ScriptSummary & {
  body: string;
  params: ScriptParamView[];
  timeout_seconds: number;
  created_at: string;
  created_by_name: string | null;
};

export type ScriptVersionSummary = {
  version: number;
  created_at: string;
  created_by_name: string | null;
  change_note: string | null;
};

/** One version whole (its body and parameters as they were). */
export type ScriptVersionDetail = ScriptVersionSummary & {
  name: string;
  description: string;
  category: string;
  language: ScriptLanguage;
  os: ScriptOs;
  body: string;
  params: ScriptParamView[];
  timeout_seconds: number;
};

/** Export format: a file of scripts without secret values (import sets no secret default). */
export const SCRIPT_EXPORT_FORMAT = 'outpost-scripts/1';
export const ScriptExport = z.object({
  format: z.literal(SCRIPT_EXPORT_FORMAT),
  exported_at: z.string().max(64).optional(),
  scripts: z
    .array(ScriptInput.omit({ change_note: true }))
    .min(1, 'The file holds no scripts')
    .max(500),
});
export type ScriptExport = z.infer<typeof ScriptExport>;

// ---------- runs ----------

export const OFFLINE_CHOICES = ['wait', 'skip'] as const;
export const OfflineChoice = z.enum(OFFLINE_CHOICES);
export type OfflineChoice = z.infer<typeof OfflineChoice>;

/** POST /customer/scripts/{id}/runs: run a script's current version now. */
export const ScriptRunInput = z
  .object({
    /** the devices (a selection or one device) … */
    device_ids: z.array(Id).max(SCRIPT_LIMITS.runDevicesMax).optional(),
    /** … or a group's members in the caller's scope */
    group_id: Id.optional(),
    /** parameter values by name; a secret left out uses its stored default */
    params: z.record(z.string().max(48), z.string().max(SCRIPT_LIMITS.paramValueMax)).default({}),
    timeout_seconds: z.number().int().min(SCRIPT_LIMITS.timeoutMin).max(SCRIPT_LIMITS.timeoutMax).optional(),
    /** offline devices wait for the run's expiry, or are skipped at once */
    offline: OfflineChoice.default('wait'),
  })
  .strict()
  .refine((b) => (b.device_ids?.length ?? 0) > 0 !== (b.group_id !== undefined), {
    message: 'Choose devices or a group',
    path: ['device_ids'],
  });
export type ScriptRunInput = z.infer<typeof ScriptRunInput>;

/** What a script run's job carries (deployment_jobs.script_run), the secrets sealed. */
export type ScriptRunSpec = {
  script_id: number;
  script_name: string;
  version: number;
  language: ScriptLanguage;
  body: string;
  /** non-secret values by name */
  params: Record<string, string>;
  /** secret values by name, sealed with the server's scripts key */
  sealed_secrets: Record<string, string>;
  timeout_seconds: number;
  offline: OfflineChoice;
};

// ---------- API shapes (added with the library's routes) ----------

export const ScriptIdParams = z.object({ id: IdParam });
export const ScriptVersionParams = z.object({ id: IdParam, version: IdParam });

export const ScriptListQuery = z.object({
  page: PageParam,
  limit: z.coerce.number().int().min(1).max(500).default(50),
  search: z.string().trim().max(200).optional(),
  category: z.string().trim().max(SCRIPT_LIMITS.categoryMax).optional(),
  language: ScriptLanguage.optional(),
  os: ScriptOs.optional(),
});
export type ScriptListQuery = z.infer<typeof ScriptListQuery>;

/** A category of the tenant's library and how many scripts carry it. */
export type ScriptCategory = { name: string; count: number };

/** GET /customer/scripts/export?ids=1,2 (none: the whole library). */
export const ScriptExportQuery = z.object({
  ids: z
    .string()
    .max(11 * 500)
    .regex(/^\d{1,10}(,\d{1,10})*$/, 'ids is a comma-separated list of script ids')
    .optional(),
});

/** POST /customer/scripts/import: the export file, checked script by script in the service. */
export const ScriptImportBody = z.object({
  format: z.string().max(64),
  exported_at: z.string().max(64).optional(),
  scripts: z.array(z.record(z.string(), z.unknown())).max(500),
});

export type ScriptImportResult = { imported: { id: number; name: string }[] };

export type ScriptRunCreatedResponse = { job_id: number; devices: number; skipped: number };

export const scriptMessages = {
  notFound: 'Script not found',
  versionNotFound: 'Version not found',
  nameTaken: (name: string) => `A script named "${name}" already exists`,
  readOnly: 'Scripts are shared by all sites; only users with access to all sites can change them.',
  languageNotForOs: (language: string, os: string) => `${language} scripts cannot target ${os}`,
  bodyTooLarge: `The script is larger than ${SCRIPT_LIMITS.bodyMaxBytes / 1024} KiB`,
  badFormat: `This is not a script export (format ${SCRIPT_EXPORT_FORMAT} expected)`,
  emptyImport: 'The file holds no scripts',
  importProblem: (index: number, name: string | null, field: string, message: string) =>
    `Script ${index + 1}${name ? ` ("${name}")` : ''}: ${field ? `${field}: ` : ''}${message}`,
  secretUnreadable: (name: string) =>
    `The saved value of ${name} can no longer be read (the server's secret changed); enter it again`,
} as const;
