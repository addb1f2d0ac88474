import { stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { deploymentMessages, messages } from '@outpost/contract/messages';
import { runDeployment } from './run-deployment';
import type { DeploymentDeps } from './run-deployment';
import {
  command,
  noDownload,
  recordingRunner,
  reports,
  stagedPath,
  step,
  useTempFiles,
} from '../../test/support/steps';

// Windows commands are recorded on a fake win32 platform, never run.

const temp = useTempFiles();

function setup(platform: NodeJS.Platform) {
  const r = reports();
  const rec = recordingRunner(0);
  const deps: DeploymentDeps = {
    report: r.report,
    fetchFile: temp.files.fetchFile,
    download: noDownload,
    runner: rec.runner,
    platform,
    workDir: path.join(temp.dir, 'work'),
  };
  return { r, rec, deps };
}

describe('Windows-only steps', () => {
  it('installs an MSI with msiexec, its UI level and properties', async () => {
    const { rec, deps } = setup('win32');
    const file = await temp.files.add('app.msi', 'msi');
    const result = await runDeployment(
      command([
        step(1, 'MSI', {
          source_type: 'upload',
          file,
          ui_level: 'basic',
          properties: 'ALLUSERS=1 INSTALLDIR="C:\\Program Files\\App"',
        }),
      ]),
      deps,
    );
    expect(result.status).toBe('completed');
    const local = stagedPath(path.join(temp.dir, 'work'), file.originalFilename);
    expect(rec.lines()).toEqual([
      `msiexec.exe /i "${local}" /qb /norestart ALLUSERS=1 INSTALLDIR="C:\\Program Files\\App"`,
    ]);
  });

  it('writes registry values with reg add', async () => {
    const { rec, deps } = setup('win32');
    await runDeployment(
      command([
        step(1, 'REGISTRY', {
          hive: 'HKEY_LOCAL_MACHINE',
          key_path: 'SOFTWARE\\Vendor',
          value_name: 'Level',
          value_type: 'REG_DWORD',
          value_data: '0x10',
        }),
        step(2, 'REGISTRY', {
          hive: 'HKEY_CURRENT_USER',
          key_path: 'Software\\Vendor',
          value_type: 'REG_MULTI_SZ',
          value_data: 'a\nb',
        }),
      ]),
      deps,
    );
    expect(rec.lines()).toEqual([
      'reg.exe add HKLM\\SOFTWARE\\Vendor /v Level /t REG_DWORD /d 16 /f',
      'reg.exe add HKCU\\Software\\Vendor /ve /t REG_MULTI_SZ /d a\\0b /f',
    ]);
  });

  it('refuses MSI, registry and folder permissions elsewhere with a clear message', async () => {
    const { r, rec, deps } = setup('linux');
    const file = await temp.files.add('app.msi', 'msi');
    const result = await runDeployment(
      command([
        step(1, 'MSI', { source_type: 'upload', file }, { failDeploymentOnError: false, retryCount: 2 }),
        step(
          2,
          'REGISTRY',
          { hive: 'HKEY_LOCAL_MACHINE', key_path: 'SOFTWARE\\X' },
          { failDeploymentOnError: false },
        ),
        step(
          3,
          'FOLDER',
          { folder_path: path.join(temp.dir, 'f'), permissions: 'Users:Read' },
          { failDeploymentOnError: false },
        ),
      ]),
      deps,
    );
    expect(result.steps.map((s) => s.attempts.map((a) => a.errorMessage))).toEqual([
      [deploymentMessages.stepForOtherOs('Install MSI', 'Linux')],
      [deploymentMessages.stepForOtherOs('Registry', 'Linux')],
      ['Setting folder permissions runs only on Windows'],
    ]);
    expect(rec.calls).toEqual([]);
    expect(r.list.filter((p) => p.status === 'failed')).toHaveLength(3);
  });

  it('creates nested folders, then hides them and grants permissions on Windows', async () => {
    const { rec, deps } = setup('win32');
    const folder = path.join(temp.dir, 'a', 'b', 'c');
    const result = await runDeployment(
      command([
        step(1, 'FOLDER', {
          folder_path: folder,
          hidden: true,
          permissions: 'BUILTIN\\Users:ReadAndExecute\nBUILTIN\\Administrators:FullControl',
        }),
      ]),
      deps,
    );
    expect(result.status).toBe('completed');
    expect((await stat(folder)).isDirectory()).toBe(true);
    expect(rec.lines()).toEqual([
      `attrib.exe +h ${folder}`,
      `icacls.exe ${folder} /grant BUILTIN\\Users:(OI)(CI)RX /grant BUILTIN\\Administrators:(OI)(CI)F`,
    ]);
  });

  it('creates nested folders on POSIX, and refuses a missing parent when parents are off', async () => {
    const { r, rec, deps } = setup('linux');
    const nested = path.join(temp.dir, 'x', 'y', 'z');
    const result = await runDeployment(
      command([
        step(1, 'FOLDER', { folder_path: nested }),
        step(2, 'FOLDER', { folder_path: path.join(temp.dir, 'missing', 'leaf'), create_parents: false }),
      ]),
      deps,
    );
    expect((await stat(nested)).isDirectory()).toBe(true);
    expect(result.steps.map((s) => s.status)).toEqual(['completed', 'failed']);
    expect(r.list.at(-1)?.errorMessage).toBe(
      `The parent folder ${path.join(temp.dir, 'missing')} does not exist (Create Parent Folders is off)`,
    );
    expect(rec.calls).toEqual([]);
  });

  it('runs CMD through cmd.exe and PowerShell through powershell.exe with the execution policy', async () => {
    const { rec, deps } = setup('win32');
    await runDeployment(
      command([
        step(1, 'CMD', { command: 'ipconfig /flushdns' }),
        step(2, 'POWERSHELL', {
          script_type: 'inline',
          script_content: 'Write-Output hi',
          execution_policy: 'RemoteSigned',
        }),
      ]),
      deps,
    );
    expect(rec.calls[0]).toMatchObject({
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '"ipconfig /flushdns"'],
      windowsVerbatimArguments: true,
    });
    expect(rec.calls[1]?.file).toBe('powershell.exe');
    expect(rec.calls[1]?.args.slice(0, 5)).toEqual([
      '-NoProfile',
      '-NonInteractive',
      '-ExecutionPolicy',
      'RemoteSigned',
      '-File',
    ]);
    expect(rec.calls[1]?.args[5]).toMatch(/script\.ps1$/);
  });

  it('fails a POWERSHELL step when powershell.exe is missing or a stub that runs nothing', async () => {
    const inline = step(1, 'POWERSHELL', { script_type: 'inline', script_content: 'Write-Output hi' });
    // a stub: every call ends at once with exit 0 and no output, the probe included
    const stub = setup('win32');
    const stubbed = await runDeployment(command([inline]), stub.deps);
    expect(stubbed.status).toBe('failed');
    expect(stub.r.ends().at(-1)).toMatchObject({
      status: 'failed',
      errorMessage: messages.powershellUnavailable,
    });
    expect(stub.rec.lines().at(-1)).toBe(
      "powershell.exe -NoProfile -NonInteractive -Command Write-Output 'outpost-powershell-ok'",
    );
    // missing: it cannot be started
    const missing = setup('win32');
    missing.deps.runner = () =>
      Promise.resolve({
        exitCode: null,
        timedOut: false,
        cancelled: false,
        spawnError: 'spawn powershell.exe ENOENT',
      });
    await runDeployment(command([inline]), missing.deps);
    expect(missing.r.ends().at(-1)).toMatchObject({
      status: 'failed',
      errorMessage: messages.powershellUnavailable,
    });
    // a real one that runs a silent script: the probe answers, the step completes
    const real = setup('win32');
    real.deps.runner = (request) => {
      if (request.args.includes('-Command')) {
        request.onStdout('outpost-powershell-ok\r\n');
      }
      return Promise.resolve({ exitCode: 0, timedOut: false, cancelled: false });
    };
    expect((await runDeployment(command([inline]), real.deps)).status).toBe('completed');
  });

  it('runs an uploaded .ps1 through pwsh elsewhere', async () => {
    const { rec, deps } = setup('linux');
    const script_file = await temp.files.add('fix.ps1', 'Write-Output hi');
    await runDeployment(command([step(1, 'POWERSHELL', { script_type: 'file', script_file })]), deps);
    const local = stagedPath(path.join(temp.dir, 'work'), 'fix.ps1');
    expect(rec.lines()).toEqual([`pwsh -NoProfile -NonInteractive -ExecutionPolicy Bypass -File ${local}`]);
  });
});
