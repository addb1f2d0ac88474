import crypto from 'node:crypto';
import { Readable } from 'node:stream';
import type { StepBody } from '@outpost/contract/packages';
import { StepBody as StepBodySchema } from '@outpost/contract/packages';
import { referencedFileIds } from '@outpost/contract/step-catalog';
import type { Db } from '../../db/client';
import type { BlobStore } from '../files/blob-store';
import { fileLookup } from '../files/files.service';
import { insertPackage, insertStep, replaceStepFiles } from './packages.queries';

// The embedded demo's packages: real-world tasks an IT team deploys. The one uploaded
// file is a small placeholder, named and described as such: it is not a Windows Installer package.

const PLACEHOLDER_MSI_NAME = '7zip-x64-DEMO-PLACEHOLDER.msi';
const PLACEHOLDER_MSI_TEXT = [
  'Outpost demo placeholder - this is NOT a Windows Installer package.',
  'The demo package "7-Zip 24.09 (x64)" refers to this file so the builder has an uploaded file to show.',
  'Before deploying, edit the step and upload the real MSI from https://www.7-zip.org/download.html',
  '',
].join('\r\n');

// One fixed key for the placeholder: every demo database (tests start many) shares one small
// file instead of leaving a copy each. It is read-only in practice: the 7-Zip step uses it.
const PLACEHOLDER_MSI_KEY = 'demo-7zip-x64-placeholder-v1.msi';

async function storePlaceholder(store: BlobStore): Promise<{ size: number; sha256: string }> {
  const bytes = Buffer.from(PLACEHOLDER_MSI_TEXT, 'utf8');
  const known = { size: bytes.length, sha256: crypto.createHash('sha256').update(bytes).digest('hex') };
  const isStored = async () => {
    const existing = await store.open(PLACEHOLDER_MSI_KEY).catch(() => null);
    existing?.destroy();
    return existing !== null;
  };
  if (await isStored()) {
    return known;
  }
  try {
    return await store.put(PLACEHOLDER_MSI_KEY, Readable.from([bytes]));
  } catch (err) {
    // Another process seeding at the same moment wrote it first.
    if (await isStored()) {
      return known;
    }
    throw err;
  }
}

type DemoPackage = {
  name: string;
  description: string;
  osVersionRequirement?: string;
  packageVersion: string;
  isTemplate?: boolean;
  steps: StepBody[];
};

function demoPackages(msi: { id: number; originalFilename: string }): DemoPackage[] {
  return [
    {
      name: '7-Zip 24.09 (x64)',
      description:
        'File archiver, installed silently from an uploaded MSI. Demo: the uploaded MSI is a placeholder; upload the real one before deploying.',
      osVersionRequirement: 'Windows 10 1903+',
      packageVersion: '24.09',
      steps: [
        {
          step_name: 'Install 7-Zip MSI',
          step_type: 'MSI',
          step_details: {
            source_type: 'upload',
            file: msi,
            properties: 'INSTALLDIR="C:\\Program Files\\7-Zip" ALLUSERS=1',
            ui_level: 'none',
          },
          timeout_seconds: 600,
          retry_count: 1,
        },
        {
          step_name: 'Verify 7z.exe is present',
          step_type: 'CMD',
          step_details: {
            command: 'if exist "C:\\Program Files\\7-Zip\\7z.exe" (exit /b 0) else (exit /b 1)',
            run_as_admin: true,
            wait_for_completion: true,
          },
          timeout_seconds: 30,
        },
      ],
    },
    {
      name: 'Microsoft Edge policy: no first-run, no sidebar',
      description: 'Sets machine-wide Edge policies so new users go straight to the company start page.',
      packageVersion: '1.1.0',
      steps: [
        {
          step_name: 'Hide the first-run experience',
          step_type: 'REGISTRY',
          step_details: {
            hive: 'HKEY_LOCAL_MACHINE',
            key_path: 'SOFTWARE\\Policies\\Microsoft\\Edge',
            value_name: 'HideFirstRunExperience',
            value_type: 'REG_DWORD',
            value_data: '1',
          },
          timeout_seconds: 60,
        },
        {
          step_name: 'Turn off the sidebar (hubs)',
          step_type: 'REGISTRY',
          step_details: {
            hive: 'HKEY_LOCAL_MACHINE',
            key_path: 'SOFTWARE\\Policies\\Microsoft\\Edge',
            value_name: 'HubsSidebarEnabled',
            value_type: 'REG_DWORD',
            value_data: '0',
          },
          timeout_seconds: 60,
        },
      ],
    },
    {
      name: 'IT tools folder',
      description:
        'Creates C:\\Tools for support utilities, readable by users, and adds it to the machine PATH.',
      packageVersion: '1.0.0',
      steps: [
        {
          step_name: 'Create C:\\Tools',
          step_type: 'FOLDER',
          step_details: {
            folder_path: 'C:\\Tools',
            create_parents: true,
            permissions: 'BUILTIN\\Administrators:FullControl\nBUILTIN\\Users:ReadAndExecute',
            hidden: false,
          },
          timeout_seconds: 60,
        },
        {
          step_name: 'Add C:\\Tools to the machine PATH',
          step_type: 'POWERSHELL',
          step_details: {
            script_type: 'inline',
            script_content: [
              "$path = [Environment]::GetEnvironmentVariable('Path', 'Machine')",
              "if (($path -split ';') -notcontains 'C:\\Tools') {",
              "  [Environment]::SetEnvironmentVariable('Path', \"$path;C:\\Tools\", 'Machine')",
              "  Write-Output 'Added C:\\Tools to PATH'",
              '} else {',
              "  Write-Output 'C:\\Tools already on PATH'",
              '}',
            ].join('\n'),
            execution_policy: 'Bypass',
            run_as_admin: true,
          },
          timeout_seconds: 120,
        },
      ],
    },
    {
      name: 'Notepad++ 8.7.1',
      description: 'Downloads the official x64 installer from GitHub and installs it silently.',
      packageVersion: '8.7.1',
      steps: [
        {
          step_name: 'Install Notepad++',
          step_type: 'EXE',
          step_details: {
            source_type: 'url',
            url: 'https://github.com/notepad-plus-plus/notepad-plus-plus/releases/download/v8.7.1/npp.8.7.1.Installer.x64.exe',
            arguments: '/S',
          },
          timeout_seconds: 900,
          retry_count: 2,
        },
      ],
    },
    {
      name: 'New workstation baseline',
      description:
        'Template: power settings for desks, a support folder and a DNS flush. Duplicate it and add the software for a team.',
      packageVersion: '1.0.0',
      isTemplate: true,
      steps: [
        {
          step_name: 'Never sleep on AC power',
          step_type: 'CMD',
          step_details: { command: 'powercfg /change standby-timeout-ac 0', run_as_admin: true },
          timeout_seconds: 60,
        },
        {
          step_name: 'Create C:\\Support',
          step_type: 'FOLDER',
          step_details: { folder_path: 'C:\\Support', create_parents: true, hidden: true },
          timeout_seconds: 60,
        },
        {
          step_name: 'Flush the DNS cache',
          step_type: 'CMD',
          step_details: { command: 'ipconfig /flushdns' },
          timeout_seconds: 60,
          fail_deployment_on_error: false,
        },
      ],
    },
  ];
}

/** Seeds the demo packages of one tenant (called once, from seedDemo, on an empty database). */
export async function seedDemoPackages(
  db: Db,
  opts: { tenantId: number; userId: number; userName: string; blobStore: BlobStore },
): Promise<number[]> {
  const stored = await storePlaceholder(opts.blobStore);
  const key = PLACEHOLDER_MSI_KEY;
  return db.transaction(async (tx) => {
    const msi = await fileLookup.recordStored(tx, {
      tenantId: opts.tenantId,
      storageKey: key,
      originalFilename: PLACEHOLDER_MSI_NAME,
      contentType: 'application/x-msi',
      sizeBytes: stored.size,
      sha256: stored.sha256,
      uploadedBy: opts.userId,
      uploadedByName: opts.userName,
    });
    const ids: number[] = [];
    for (const p of demoPackages({ id: msi.id, originalFilename: msi.originalFilename })) {
      const row = await insertPackage(tx, {
        tenantId: opts.tenantId,
        name: p.name,
        description: p.description,
        osVersionRequirement: p.osVersionRequirement ?? null,
        packageVersion: p.packageVersion,
        isTemplate: p.isTemplate ?? false,
        createdBy: opts.userId,
        createdByName: opts.userName,
        updatedBy: opts.userId,
        updatedByName: opts.userName,
      });
      for (const [index, body] of p.steps.entries()) {
        // The same schema as the API: demo steps are exactly what a person could have saved.
        const step = StepBodySchema.parse(body);
        const saved = await insertStep(tx, {
          packageId: row.id,
          stepOrder: index + 1,
          stepName: step.step_name,
          stepType: step.step_type,
          stepDetails: step.step_details,
          failDeploymentOnError: step.fail_deployment_on_error,
          timeoutSeconds: step.timeout_seconds,
          retryCount: step.retry_count,
        });
        await replaceStepFiles(tx, saved.id, referencedFileIds(step.step_type, step.step_details));
      }
      ids.push(row.id);
    }
    return ids;
  });
}
