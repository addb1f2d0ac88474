import {
  DEFAULT_SUCCESS_EXIT_CODES,
  EXECUTION_POLICIES,
  REGISTRY_HIVES,
  REGISTRY_VALUE_TYPES,
  type FieldCondition,
  type FieldOption,
  type StepField,
  type StepType,
  type StepTypeDefinition,
} from './step-types';
import { DEVICE_STEP_DEFINITIONS, rebootOnRequestField } from './step-definitions-device';

// The catalogue itself: every step type with its fields, in the order the builder shows them.

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

/**
 * docs/product/device-sets.md#custom-fields: a step that produces output may store it in one of
 * the tenant's custom fields when it completes (the server checks the key when the step is saved).
 */
const storeOutputField: StepField = {
  key: 'store_output_field',
  label: 'Store output in custom field',
  type: 'custom_field',
  required: false,
  helpText: 'When the step succeeds, its trimmed output is saved in this field of the device.',
};

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
      rebootOnRequestField,
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
      rebootOnRequestField,
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
      storeOutputField,
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
      storeOutputField,
    ],
  },
  ...DEVICE_STEP_DEFINITIONS,
};
