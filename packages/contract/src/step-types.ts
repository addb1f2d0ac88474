import { z } from 'zod';
import { Id } from './input';

// The step types and the shapes of their fields (see step-catalog.ts).

export const STEP_TYPES = [
  'EXE',
  'MSI',
  'CUSTOM_ZIP',
  'REGISTRY',
  'FOLDER',
  'CMD',
  'POWERSHELL',
  'REBOOT',
  'MESSAGE',
  'WAIT',
] as const;
export const StepType = z.enum(STEP_TYPES);
export type StepType = z.infer<typeof StepType>;

/** `custom_field`: the key of one of the tenant's custom fields (docs/product/device-sets.md#custom-fields). */
export const FIELD_TYPES = [
  'text',
  'url',
  'number',
  'textarea',
  'select',
  'boolean',
  'file',
  'custom_field',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** An uploaded file as a step refers to it (docs/product/packages.md#fields). */
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
  /** Number fields: the whole numbers allowed, inclusive (docs/product/rollouts.md#reboot-message-and-wait-steps). */
  range?: { min: number; max: number };
};

export type StepTypeDefinition = {
  type: StepType;
  label: string;
  description: string;
  fields: readonly StepField[];
};

// Installers use 0 for success and 3010/1641 for success that needs (or started) a reboot.
export const DEFAULT_SUCCESS_EXIT_CODES = '0,3010,1641';

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
