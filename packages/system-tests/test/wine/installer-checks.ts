import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { eventually } from '@outpost/server/test-support';
import { makeZip } from '@outpost/agent/test-support';
import { MSI_FOLDER, MSI_KEY, buildMsi, sha256, startFileServer } from './wine-fixtures';
import type { WinePrefix } from './wine-harness';
import type { Portal } from '../support/portal';
import { killPrefixProcesses, prefixProcesses, stepProcesses } from './wine-processes';

// EXE, MSI, CUSTOM_ZIP and URL steps and a timeout, run by the Windows agent under
// Wine (registered into the suite's describe, which owns the prefix, the server and the device).

export type WineSession = {
  wine: WinePrefix;
  api: Portal;
  deviceId: number;
  home: string;
};

export function registerInstallerChecks(session: () => WineSession) {
  it('runs EXE steps: a small Windows program, and a .bat with its argument and a 3010 reboot code', async () => {
    const { wine, api, deviceId } = session();
    const program = fs.readFileSync(path.join(wine.driveC, 'windows', 'system32', 'hostname.exe'));
    const exe = await api.upload('hostname.exe', program);
    const bat = await api.upload(
      'install.bat',
      '@echo off\r\necho bat got %1\r\necho %1> C:\\OutpostTest\\bat-ran.txt\r\nexit /b 3010\r\n',
    );
    fs.mkdirSync(path.join(wine.driveC, 'OutpostTest'), { recursive: true });
    const { job, logs } = await api.deploy(deviceId, 'Wine EXE', [
      { step_name: 'Program', step_type: 'EXE', step_details: { source_type: 'upload', file: exe } },
      {
        step_name: 'Batch',
        step_type: 'EXE',
        step_details: { source_type: 'upload', file: bat, arguments: 'quiet-mode' },
      },
    ]);
    const of = await logs();
    expect(of('Program')[0], JSON.stringify(of('Program'))).toMatchObject({
      status: 'completed',
      exit_code: 0,
    });
    expect(of('Program')[0]!.stdout_log.trim().length).toBeGreaterThan(0);
    expect(of('Batch')[0], JSON.stringify(of('Batch'))).toMatchObject({
      status: 'completed',
      exit_code: 3010,
    });
    expect(of('Batch')[0]!.stdout_log).toContain('bat got quiet-mode');
    expect(fs.readFileSync(path.join(wine.driveC, 'OutpostTest', 'bat-ran.txt'), 'utf8').trim()).toBe(
      'quiet-mode',
    );
    expect(job).toMatchObject({ status: 'completed' });
    expect(job.deployments[0]).toMatchObject({ reboot_required: true });
  });

  it('runs a CUSTOM_ZIP: extracts it, runs its .cmd main program, cleans up', async () => {
    const { wine, api, deviceId, home } = session();
    const zip = await api.upload(
      'tool.zip',
      await makeZip([
        {
          name: 'bin/run.cmd',
          data: '@echo off\r\necho zip ran %1\r\necho ok> C:\\OutpostTest\\zip-ran.txt\r\n',
        },
        { name: 'bin/data.txt', data: 'data' },
      ]),
    );
    const { job, logs } = await api.deploy(deviceId, 'Wine ZIP', [
      {
        step_name: 'Zip',
        step_type: 'CUSTOM_ZIP',
        step_details: { zip_file: zip, main_executable: 'bin\\run.cmd', arguments: 'now', cleanup: true },
      },
    ]);
    const of = await logs();
    expect(job.status, JSON.stringify(of('Zip'))).toBe('completed');
    expect(of('Zip')[0]!.stdout_log).toContain('zip ran now');
    expect(fs.readFileSync(path.join(wine.driveC, 'OutpostTest', 'zip-ran.txt'), 'utf8').trim()).toBe('ok');
    const left = fs.readdirSync(home, { recursive: true }).map(String);
    expect(left.filter((f) => f.endsWith('run.cmd') || f.endsWith('data.txt'))).toEqual([]);
  });

  it('runs an EXE from a URL with an extension and from one without (…/download/latest)', async () => {
    const { wine, api, deviceId } = session();
    const program = fs.readFileSync(path.join(wine.driveC, 'windows', 'system32', 'hostname.exe'));
    const files = await startFileServer({
      '/files/tool.exe': { body: program },
      '/download/latest': { body: program },
    });
    try {
      const url = (route: string) => ({
        source_type: 'url',
        url: `${files.url}${route}`,
        sha256: sha256(program),
      });
      const { job, logs } = await api.deploy(deviceId, 'Wine URL', [
        { step_name: 'With extension', step_type: 'EXE', step_details: url('/files/tool.exe') },
        { step_name: 'Without extension', step_type: 'EXE', step_details: url('/download/latest') },
      ]);
      const of = await logs();
      expect(job.status, JSON.stringify([of('With extension'), of('Without extension')])).toBe('completed');
      expect(of('Without extension')[0]).toMatchObject({ status: 'completed', exit_code: 0 });
    } finally {
      await files.close();
    }
  });

  it('fails a step at its timeout and reports it (under Wine once the program has ended)', async () => {
    const { wine, api, deviceId } = session();
    const program = 'ping -n 90 127.0.0.2';
    const id = await api.start(deviceId, 'Wine timeout', [
      {
        step_name: 'Slow',
        step_type: 'CMD',
        step_details: { command: `${program} >nul` },
        timeout_seconds: 3,
      },
    ]);
    await eventually(() => Promise.resolve(prefixProcesses(wine, program).length > 0), 90_000);
    // past the timeout the agent has run taskkill /T, which Wine 8 refuses (cancel-checks.ts):
    // the program is still there; ended from outside, the step ends failed with the timeout
    await new Promise((resolve) => setTimeout(resolve, 8_000));
    expect(stepProcesses(wine, program)).toEqual(['cmd.exe', 'program']);
    killPrefixProcesses(wine, program);
    const { job, logs } = await api.finished(id);
    const slow = (await logs())('Slow')[0]!;
    expect(job.status).toBe('failed');
    expect(slow).toMatchObject({ status: 'failed' });
    expect(slow.error_message).toMatch(/Timed out after 3 seconds/);
  });

  // last: an msiexec that never ends would hold back every deployment after it (one at a time)
  it('installs a wixl-built MSI with a property through msiexec: its file and registry value are there', async () => {
    const { wine, api, deviceId } = session();
    const msi = await api.upload('app.msi', buildMsi(path.join(wine.dir, 'msi')));
    const { job, logs } = await api.deploy(deviceId, 'Wine MSI', [
      {
        step_name: 'MSI',
        step_type: 'MSI',
        step_details: { source_type: 'upload', file: msi, properties: 'GREETING="hello from msi"' },
        timeout_seconds: 60,
      },
    ]);
    expect(job.status, JSON.stringify((await logs())('MSI'))).toBe('completed');
    expect(fs.existsSync(path.join(wine.driveC, ...MSI_FOLDER, 'readme.txt'))).toBe(true);
    expect(await wine.regQuery(MSI_KEY, 'Greeting')).toBe('hello from msi');
  });
}
