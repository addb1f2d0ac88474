import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  DEFAULT_SUCCESS_EXIT_CODES,
  STEP_CATALOG,
  STEP_TYPES,
  defaultStepDetails,
  isFieldActive,
  missingRequiredFields,
  parseStepDetails,
  referencedFileIds,
} from './step-catalog';
import type { StepType } from './step-catalog';
import { StepBody } from './packages';
import { packageMessages } from './messages';

const file = (name: string, id = 7) => ({ id, originalFilename: name });

// The product's valid shapes (docs/product/packages.md#step-types), one or more per type and branch.
const VALID: Record<StepType, Record<string, unknown>[]> = {
  EXE: [
    { source_type: 'upload', file: file('setup.exe'), arguments: '/S' },
    { source_type: 'url', url: 'https://example.com/setup.exe', working_directory: 'C:\\Temp' },
    { source_type: 'url', url: 'https://example.com/setup.exe', sha256: 'AB'.repeat(32) },
  ],
  MSI: [
    { source_type: 'upload', file: file('7z.msi'), properties: 'ALLUSERS=1', ui_level: 'none' },
    {
      source_type: 'url',
      url: 'http://intranet.example/app.msi',
      ui_level: 'basic',
      sha256: 'ab'.repeat(32),
    },
  ],
  CUSTOM_ZIP: [{ zip_file: file('tools.zip'), main_executable: 'install.exe', cleanup: false }],
  REGISTRY: [
    {
      hive: 'HKEY_LOCAL_MACHINE',
      key_path: 'SOFTWARE\\Acme',
      value_name: 'On',
      value_type: 'REG_DWORD',
      value_data: '1',
    },
    { hive: 'HKEY_CURRENT_USER', key_path: 'Software\\Acme' },
  ],
  FOLDER: [
    { folder_path: 'C:\\Tools', create_parents: true, permissions: 'BUILTIN\\Users:Read', hidden: true },
  ],
  CMD: [{ command: 'ipconfig /flushdns', run_as_admin: false, wait_for_completion: true }],
  POWERSHELL: [
    { script_type: 'inline', script_content: 'Get-Date', execution_policy: 'RemoteSigned' },
    { script_type: 'file', script_file: file('setup.ps1') },
  ],
  REBOOT: [{}, { message: 'Restarting soon', delay_seconds: 0, max_deferrals: 3, deferral_minutes: 30 }],
  MESSAGE: [
    { title: 'IT', message: 'Hello' },
    { title: 'IT', message: 'Hi', timeout_seconds: '30' },
  ],
  WAIT: [{ seconds: 1 }, { seconds: 86_400 }],
};

const requiredMessage = (labels: string[]) => packageMessages.requiredStepFields(labels);

describe('the step catalogue', () => {
  it('has the step types of the spec, each with its fields', () => {
    expect(Object.keys(STEP_CATALOG)).toEqual([...STEP_TYPES]);
    const keys = (t: StepType) => STEP_CATALOG[t].fields.map((f) => f.key);
    expect(keys('EXE')).toEqual([
      'source_type',
      'file',
      'url',
      'sha256',
      'arguments',
      'working_directory',
      'success_exit_codes',
      'reboot_on_request',
    ]);
    expect(keys('MSI')).toEqual([
      'source_type',
      'file',
      'url',
      'sha256',
      'properties',
      'ui_level',
      'success_exit_codes',
      'reboot_on_request',
    ]);
    expect(keys('CUSTOM_ZIP')).toEqual([
      'zip_file',
      'extract_path',
      'main_executable',
      'arguments',
      'cleanup',
    ]);
    expect(keys('REGISTRY')).toEqual(['hive', 'key_path', 'value_name', 'value_type', 'value_data']);
    expect(keys('FOLDER')).toEqual(['folder_path', 'create_parents', 'permissions', 'hidden']);
    expect(keys('CMD')).toEqual([
      'command',
      'working_directory',
      'run_as_admin',
      'wait_for_completion',
      'store_output_field',
    ]);
    expect(keys('POWERSHELL')).toEqual([
      'script_type',
      'script_content',
      'script_file',
      'execution_policy',
      'run_as_admin',
      'working_directory',
      'store_output_field',
    ]);
  });

  it('offers the spec’s options for the select fields', () => {
    const options = (t: StepType, key: string) =>
      STEP_CATALOG[t].fields.find((f) => f.key === key)?.options?.map((o) => o.value);
    expect(options('MSI', 'ui_level')).toEqual(['none', 'basic', 'reduced', 'full']);
    expect(options('REGISTRY', 'hive')).toHaveLength(5);
    expect(options('REGISTRY', 'value_type')).toEqual([
      'REG_SZ',
      'REG_DWORD',
      'REG_QWORD',
      'REG_BINARY',
      'REG_MULTI_SZ',
      'REG_EXPAND_SZ',
    ]);
    expect(options('POWERSHELL', 'execution_policy')).toEqual([
      'Bypass',
      'Unrestricted',
      'RemoteSigned',
      'AllSigned',
    ]);
    expect(options('EXE', 'source_type')).toEqual(['upload', 'url']);
  });
});

describe.each(STEP_TYPES)('%s step details', (type) => {
  it.each(VALID[type].map((d) => [JSON.stringify(d), d]))('accept %s', (_name, details) => {
    const result = parseStepDetails(type, details);
    expect(result).toMatchObject({ success: true });
  });

  // Every required field of every valid shape, removed or blanked, is reported by its label.
  const cases = VALID[type].flatMap((details) =>
    STEP_CATALOG[type].fields
      .filter((f) => f.required && isFieldActive(f, details))
      .flatMap((f) => [
        [f.label, 'removed', details, f.key, undefined] as const,
        [f.label, 'blank', details, f.key, f.type === 'file' ? null : '  '] as const,
      ]),
  );
  it.each(cases)('reject a missing %s (%s)', (label, _how, details, key, blank) => {
    const broken: Record<string, unknown> = { ...details };
    if (blank === undefined) {
      delete broken[key];
    } else {
      broken[key] = blank;
    }
    // Removing the source or script type also switches off the fields it controls.
    const expected = missingRequiredFields(type, broken);
    expect(expected[0]).toBe(label);
    expect(parseStepDetails(type, broken)).toEqual({ success: false, error: requiredMessage(expected) });
  });

  it('lists every missing required field in catalogue order', () => {
    const labels = STEP_CATALOG[type].fields.filter((f) => f.required && !f.showWhen).map((f) => f.label);
    // a type without required fields (REBOOT) takes empty details
    const expected =
      labels.length > 0 ? { success: false, error: requiredMessage(labels) } : { success: true };
    expect(parseStepDetails(type, {})).toMatchObject(expected);
  });
});

describe('conditional fields', () => {
  it.each(['EXE', 'MSI'] as const)(
    '%s: the file is ignored for a URL source and the URL for an upload',
    (type) => {
      const fromUrl = parseStepDetails(type, {
        source_type: 'url',
        url: 'https://example.com/x',
        file: 'garbage left by the form',
      });
      expect(fromUrl).toMatchObject({ success: true });
      expect(fromUrl.success && fromUrl.data).not.toHaveProperty('file');

      const upload = parseStepDetails(type, { source_type: 'upload', file: file('x.bin'), url: 'not a url' });
      expect(upload).toMatchObject({ success: true });
      expect(upload.success && upload.data).not.toHaveProperty('url');
    },
  );

  it('POWERSHELL: the script file is ignored inline and the script content for a file', () => {
    expect(
      parseStepDetails('POWERSHELL', { script_type: 'inline', script_content: 'ls', script_file: 5 }),
    ).toMatchObject({
      success: true,
    });
    const fromFile = parseStepDetails('POWERSHELL', {
      script_type: 'file',
      script_file: file('a.ps1'),
      script_content: '',
    });
    expect(fromFile.success && fromFile.data).not.toHaveProperty('script_content');
  });

  it('only active file fields count as references', () => {
    expect(referencedFileIds('EXE', { source_type: 'upload', file: file('a.exe', 3) })).toEqual([3]);
    expect(referencedFileIds('EXE', { source_type: 'url', file: file('a.exe', 3) })).toEqual([]);
    expect(referencedFileIds('CUSTOM_ZIP', { zip_file: file('a.zip', 9) })).toEqual([9]);
  });
});

describe('field rules beyond presence', () => {
  it.each([
    [
      'EXE',
      { source_type: 'url', url: 'ftp://example.com/a.exe' },
      'Download URL must be a valid http:// or https:// URL',
    ],
    [
      'MSI',
      { source_type: 'url', url: 'example.com/a.msi' },
      'Download URL must be a valid http:// or https:// URL',
    ],
    [
      'EXE',
      { source_type: 'url', url: 'https://e.com/a', success_exit_codes: '0;3010' },
      packageMessages.stepExitCodes,
    ],
    // an http:// download runs only with the hash of the file it must be
    ['EXE', { source_type: 'url', url: 'http://e.com/setup.exe' }, packageMessages.stepHttpNeedsSha256],
    [
      'MSI',
      { source_type: 'url', url: 'HTTP://e.com/a.msi', sha256: ' ' },
      packageMessages.stepHttpNeedsSha256,
    ],
    ['EXE', { source_type: 'url', url: 'https://e.com/a', sha256: 'abc' }, packageMessages.stepSha256Format],
    [
      'MSI',
      { source_type: 'url', url: 'http://e.com/a.msi', sha256: 'g'.repeat(64) },
      packageMessages.stepSha256Format,
    ],
    ['POWERSHELL', { script_type: 'file', script_file: file('a.txt') }, packageMessages.stepScriptFileType],
    [
      'FOLDER',
      { folder_path: 'C:\\T', permissions: 'Users:Read\nnonsense' },
      packageMessages.stepPermissionsLine(2),
    ],
    [
      'REGISTRY',
      { hive: 'HKEY_USERS', key_path: 'k', value_type: 'REG_DWORD', value_data: '4294967296' },
      packageMessages.stepRegistryDword,
    ],
    [
      'REGISTRY',
      { hive: 'HKEY_USERS', key_path: 'k', value_type: 'REG_BINARY', value_data: '0g' },
      packageMessages.stepRegistryBinary,
    ],
    [
      'MSI',
      { source_type: 'upload', file: file('a.msi'), ui_level: 'silent' },
      'UI Level must be one of: none, basic, reduced, full',
    ],
    ['CMD', { command: 'dir', run_as_admin: 'yes' }, 'Run as Administrator must be true or false'],
  ] as const)('%s %j → %s', (type, details, message) => {
    expect(parseStepDetails(type, details)).toEqual({ success: false, error: message });
  });

  it('accepts registry numbers in decimal and hex', () => {
    for (const [valueType, data] of [
      ['REG_DWORD', '0xFFFFFFFF'],
      ['REG_QWORD', '18446744073709551615'],
      ['REG_BINARY', '01 af 3c'],
    ]) {
      expect(
        parseStepDetails('REGISTRY', {
          hive: 'HKEY_USERS',
          key_path: 'k',
          value_type: valueType,
          value_data: data,
        }),
      ).toMatchObject({ success: true });
    }
  });
});

describe('defaults and normalisation', () => {
  it('fills success_exit_codes for EXE and MSI and the optional defaults', () => {
    const exe = parseStepDetails('EXE', { source_type: 'url', url: 'https://e.com/a.exe' });
    expect(exe.success && exe.data.success_exit_codes).toBe(DEFAULT_SUCCESS_EXIT_CODES);
    const zip = parseStepDetails('CUSTOM_ZIP', { zip_file: file('a.zip'), main_executable: 'a.exe' });
    expect(zip.success && zip.data.cleanup).toBe(true);
  });

  it('the builder’s initial details only lack what the user must type or upload', () => {
    for (const type of STEP_TYPES) {
      const missing = missingRequiredFields(type, defaultStepDetails(type));
      const expected = STEP_CATALOG[type].fields
        .filter((f) => f.required && f.default === undefined && isFieldActive(f, defaultStepDetails(type)))
        .map((f) => f.label);
      expect(missing).toEqual(expected);
    }
  });

  it('drops unknown keys', () => {
    const r = parseStepDetails('CMD', { command: 'dir', injected: true });
    expect(r.success && r.data).not.toHaveProperty('injected');
  });
});

// Properties: any non-blank text in the required text fields of a valid shape keeps it valid;
// any subset of missing required fields is reported in catalogue order, never more, never less.
describe('properties', () => {
  const nonBlank = fc.string({ minLength: 1, maxLength: 40 }).filter((s) => s.trim() !== '');

  it('any non-blank command, folder path or main executable is accepted', () => {
    fc.assert(
      fc.property(nonBlank, (text) => {
        expect(parseStepDetails('CMD', { command: text }).success).toBe(true);
        expect(parseStepDetails('FOLDER', { folder_path: text }).success).toBe(true);
        expect(
          parseStepDetails('CUSTOM_ZIP', { zip_file: file('a.zip'), main_executable: text }).success,
        ).toBe(true);
      }),
    );
  });

  it('missing required fields are reported exactly, in catalogue order', () => {
    const type = 'REGISTRY' as const;
    const base = VALID.REGISTRY[0]!;
    fc.assert(
      fc.property(fc.subarray(['hive', 'key_path']), (removed) => {
        const broken = { ...base };
        for (const key of removed) {
          delete (broken as Record<string, unknown>)[key];
        }
        const labels = STEP_CATALOG[type].fields.filter((f) => removed.includes(f.key)).map((f) => f.label);
        const result = parseStepDetails(type, broken);
        expect(result).toEqual(
          labels.length
            ? { success: false, error: requiredMessage(labels) }
            : expect.objectContaining({ success: true }),
        );
      }),
    );
  });

  it('step_details as a JSON string and as an object give the same step', () => {
    const arbStep = fc.constantFrom(...STEP_TYPES).chain((type) =>
      fc.record({
        type: fc.constant(type),
        details: fc.constantFrom(...VALID[type]),
        timeout: fc.integer({ min: 1, max: 3600 }),
        retries: fc.integer({ min: 0, max: 5 }),
      }),
    );
    fc.assert(
      fc.property(arbStep, ({ type, details, timeout, retries }) => {
        const body = { step_name: 'Step', step_type: type, timeout_seconds: timeout, retry_count: retries };
        const asObject = StepBody.parse({ ...body, step_details: details });
        const asString = StepBody.parse({ ...body, step_details: JSON.stringify(details) });
        expect(asString).toEqual(asObject);
      }),
    );
  });

  it('timeouts outside 1–3600 and retries outside 0–5 are refused with the spec’s words', () => {
    const step = { step_name: 'S', step_type: 'CMD', step_details: { command: 'dir' } };
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: 0 }), fc.integer({ min: 3601 })), (timeout) => {
        const r = StepBody.safeParse({ ...step, timeout_seconds: timeout });
        expect(r.error?.issues[0]?.message).toBe(packageMessages.stepTimeoutRange);
      }),
    );
    fc.assert(
      fc.property(fc.oneof(fc.integer({ max: -1 }), fc.integer({ min: 6 })), (retries) => {
        const r = StepBody.safeParse({ ...step, retry_count: retries });
        expect(r.error?.issues[0]?.message).toBe(packageMessages.stepRetryRange);
      }),
    );
  });
});

describe('step body', () => {
  it('requires a step name first, with the spec’s message', () => {
    const r = StepBody.safeParse({ step_name: ' ', step_type: 'CMD', step_details: '{}' });
    expect(r.error?.issues[0]?.message).toBe(packageMessages.stepNameRequired);
  });

  it('refuses details that are not a JSON object', () => {
    for (const details of ['{"command', '[1,2]', '"text"']) {
      const r = StepBody.safeParse({ step_name: 'S', step_type: 'CMD', step_details: details });
      expect(r.error?.issues[0]?.message).toBe(packageMessages.stepDetailsJson);
    }
  });

  it('applies the step defaults of the spec', () => {
    const r = StepBody.parse({ step_name: 'S', step_type: 'CMD', step_details: { command: 'dir' } });
    expect(r).toMatchObject({ fail_deployment_on_error: true, timeout_seconds: 300, retry_count: 0 });
  });
});
