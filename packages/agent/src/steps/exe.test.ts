import { createHash } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeployment } from './run-deployment';
import {
  command,
  noDownload,
  recordingRunner,
  reports,
  serve,
  step,
  useTempFiles,
} from '../../test/support/steps';

const temp = useTempFiles();

// POSIX exit codes are 8 bits wide, so 3010 is exercised with the recording runner elsewhere
const SCRIPT = '#!/bin/sh\necho "args: $1|$2"\nexit 7\n';

describe('EXE steps', () => {
  it('runs an uploaded program (made executable) with its arguments and its success exit codes', async () => {
    const r = reports();
    const file = await temp.files.add('setup.sh', SCRIPT);
    const result = await runDeployment(
      command([
        step(1, 'EXE', {
          source_type: 'upload',
          file,
          arguments: '--mode "very quiet"',
          success_exit_codes: '0, 7',
        }),
      ]),
      {
        report: r.report,
        fetchFile: temp.files.fetchFile,
        download: noDownload,
        workDir: path.join(temp.dir, 'work'),
      },
    );
    expect(result).toMatchObject({ status: 'completed', rebootRequired: false });
    expect(r.output(1)).toBe('args: --mode|very quiet\n');
    expect(r.list.at(-1)).toMatchObject({ status: 'completed', exitCode: 7 });
  });

  it('refuses a file whose sha256 does not match, without running it', async () => {
    const r = reports();
    const marker = path.join(temp.dir, 'ran');
    const file = await temp.files.add('setup.sh', `#!/bin/sh\ntouch '${marker}'\n`);
    const result = await runDeployment(
      command([step(1, 'EXE', { source_type: 'upload', file: { ...file, sha256: 'a'.repeat(64) } })]),
      {
        report: r.report,
        fetchFile: temp.files.fetchFile,
        download: noDownload,
        workDir: path.join(temp.dir, 'work'),
      },
    );
    expect(result.status).toBe('failed');
    expect(r.list.at(-1)?.errorMessage).toBe(
      'setup.sh failed its integrity check (sha256 mismatch); not used',
    );
    await expect(import('node:fs/promises').then((fs) => fs.stat(marker))).rejects.toThrow();
  });

  it('downloads a URL source through the injected download and runs it', async () => {
    const r = reports();
    const urls: string[] = [];
    const result = await runDeployment(
      command([
        step(1, 'EXE', {
          source_type: 'url',
          url: 'https://example.com/dl/tool%20setup.sh?x=1',
          success_exit_codes: '7',
        }),
      ]),
      {
        report: r.report,
        fetchFile: temp.files.fetchFile,
        download: (url, signal) => {
          urls.push(url);
          return serve(SCRIPT)(url, signal);
        },
        workDir: path.join(temp.dir, 'work'),
      },
    );
    expect(result.status).toBe('completed');
    expect(urls).toEqual(['https://example.com/dl/tool%20setup.sh?x=1']);
    // the hash of the bytes it wrote (and ran) is in the step log
    expect(r.output(1)).toContain(`sha256 ${createHash('sha256').update(SCRIPT).digest('hex')}`);
  });

  it('passes Windows arguments to the program as typed', async () => {
    const r = reports();
    const rec = recordingRunner(0);
    const file = await temp.files.add('setup.exe', 'MZ');
    await runDeployment(
      command([step(1, 'EXE', { source_type: 'upload', file, arguments: '/S /v"/qn REBOOT=0"' })]),
      {
        report: r.report,
        fetchFile: temp.files.fetchFile,
        download: noDownload,
        runner: rec.runner,
        platform: 'win32',
        workDir: path.join(temp.dir, 'work'),
      },
    );
    expect(rec.calls).toHaveLength(1);
    expect(rec.calls[0]).toMatchObject({ args: ['/S /v"/qn REBOOT=0"'], windowsVerbatimArguments: true });
    expect(rec.calls[0]?.file.endsWith('setup.exe')).toBe(true);
  });
  it('runs a download without an Expected SHA-256 only from https://, also after redirects', async () => {
    const r = reports();
    const rec = recordingRunner(0);
    const result = await runDeployment(
      command([step(1, 'EXE', { source_type: 'url', url: 'https://example.com/setup.sh' })]),
      {
        report: r.report,
        fetchFile: temp.files.fetchFile,
        download: serve(SCRIPT, 'http://mirror.example/setup.sh'),
        runner: rec.runner,
        workDir: path.join(temp.dir, 'work'),
      },
    );
    expect(result.status).toBe('failed');
    expect(result.steps[0]?.attempts).toHaveLength(1);
    expect(result.steps[0]?.attempts[0]?.errorMessage).toBe(
      'Could not download https://example.com/setup.sh: it came from http://mirror.example/setup.sh, not an https:// address, and the step gives no Expected SHA-256 to check it against; not run',
    );
    expect(rec.calls).toEqual([]);
  });

  it('checks a download against its Expected SHA-256: a mismatch runs nothing and logs the hash seen', async () => {
    const r = reports();
    const rec = recordingRunner(0);
    const wanted = createHash('sha256').update('something else').digest('hex');
    const seen = createHash('sha256').update(SCRIPT).digest('hex');
    const result = await runDeployment(
      command([
        step(1, 'EXE', { source_type: 'url', url: 'http://intranet.example/setup.sh', sha256: wanted }),
      ]),
      {
        report: r.report,
        fetchFile: temp.files.fetchFile,
        download: serve(SCRIPT),
        runner: rec.runner,
        workDir: path.join(temp.dir, 'work'),
      },
    );
    expect(result.status).toBe('failed');
    expect(result.steps[0]?.attempts[0]?.errorMessage).toBe(
      `The download from http://intranet.example/setup.sh failed its integrity check: its sha256 is ${seen}, the step expects ${wanted}; not run`,
    );
    expect(rec.calls).toEqual([]);
  });
});
