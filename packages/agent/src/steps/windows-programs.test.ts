import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { windowsInvocation } from './context';
import type { Download } from './context';
import { runDeployment } from './run-deployment';
import { contentDispositionName, downloadName } from './sources';
import {
  command,
  makeZip,
  noDownload,
  recordingRunner,
  reports,
  serve,
  step,
  useTempFiles,
} from '../../test/support/steps';

// Windows programs that CreateProcess cannot start as they are: batch files (spawn EINVAL) go
// through cmd.exe, and a download without an extension is named by its type before it runs.

const temp = useTempFiles();

function setup(download: Download = noDownload) {
  const r = reports();
  const rec = recordingRunner(0);
  return {
    r,
    rec,
    deps: {
      report: r.report,
      fetchFile: temp.files.fetchFile,
      download,
      runner: rec.runner,
      platform: 'win32' as const,
      workDir: path.join(temp.dir, 'work'),
    },
  };
}

describe('batch files on Windows', () => {
  it('runs .bat and .cmd through cmd.exe /d /s /c with the path quoted and the arguments as typed', () => {
    expect(windowsInvocation('C:\\Work dir\\install.bat', '/quiet "A B"')).toEqual({
      file: 'cmd.exe',
      args: ['/d', '/s', '/c', '""C:\\Work dir\\install.bat" /quiet "A B""'],
      windowsVerbatimArguments: true,
    });
    expect(windowsInvocation('C:\\x\\SETUP.CMD', '').args).toEqual([
      '/d',
      '/s',
      '/c',
      '""C:\\x\\SETUP.CMD""',
    ]);
    expect(windowsInvocation('C:\\x\\setup.exe', '/S')).toEqual({
      file: 'C:\\x\\setup.exe',
      args: ['/S'],
      windowsVerbatimArguments: true,
    });
  });

  it('an EXE step with an uploaded .bat and a CUSTOM_ZIP whose main program is a .cmd', async () => {
    const { rec, deps } = setup();
    const bat = await temp.files.add('install.bat', '@echo off\r\nexit /b 0\r\n');
    const zip = await temp.files.add(
      'tool.zip',
      await makeZip([{ name: 'bin/run.cmd', data: '@echo zip\r\n' }]),
    );
    const result = await runDeployment(
      command([
        step(1, 'EXE', { source_type: 'upload', file: bat, arguments: '/quiet' }),
        step(2, 'CUSTOM_ZIP', { zip_file: zip, main_executable: 'bin\\run.cmd', arguments: 'x' }),
      ]),
      deps,
    );
    expect(result.status).toBe('completed');
    expect(rec.calls.map((c) => c.file)).toEqual(['cmd.exe', 'cmd.exe']);
    expect(rec.calls[0]!.args[3]).toMatch(/^""[^"]+install\.bat" \/quiet"$/);
    expect(rec.calls[1]!.args[3]).toMatch(/^""[^"]+run\.cmd" x"$/);
  });
});

describe('URL downloads on Windows are named by their type', () => {
  const exe = ['.exe', '.bat', '.cmd', '.com'];
  it('adds the extension a download without one needs, preferring the names that have one', () => {
    expect(downloadName('https://example.com/download/latest', {}, 'setup.exe', exe)).toBe('latest.exe');
    expect(downloadName('https://example.com/download/latest', {}, 'package.msi', ['.msi'])).toBe(
      'latest.msi',
    );
    expect(
      downloadName('https://example.com/download/latest', { fileName: 'Tool Setup 2.exe' }, 'setup.exe', exe),
    ).toBe('Tool_Setup_2.exe');
    expect(
      downloadName(
        'https://example.com/latest',
        { finalUrl: 'https://cdn.example.com/files/tool-2.1.exe' },
        'setup.exe',
        exe,
      ),
    ).toBe('tool-2.1.exe');
    expect(downloadName('https://example.com/', {}, 'setup.exe', exe)).toBe('setup.exe');
    expect(downloadName('https://example.com/tool.sh', {}, 'setup')).toBe('tool.sh');
  });

  it('reads the file name of a Content-Disposition header', () => {
    expect(contentDispositionName('attachment; filename="tool setup.exe"')).toBe('tool setup.exe');
    expect(contentDispositionName('attachment; filename*=UTF-8\'\'T%C3%B6ol.msi; filename="x.msi"')).toBe(
      'Töol.msi',
    );
    expect(contentDispositionName('attachment; filename=..\\..\\evil.exe')).toBe('evil.exe');
    expect(contentDispositionName('inline')).toBeUndefined();
    expect(contentDispositionName(null)).toBeUndefined();
  });

  it('an EXE step from …/download/latest runs latest.exe', async () => {
    const { rec, deps } = setup(serve('MZ'));
    const result = await runDeployment(
      command([step(1, 'EXE', { source_type: 'url', url: 'https://example.com/download/latest' })]),
      deps,
    );
    expect(result.status).toBe('completed');
    expect(path.win32.basename(rec.calls[0]!.file)).toMatch(/latest\.exe$/);
  });
});
