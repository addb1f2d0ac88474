import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeployment } from './run-deployment';
import type { DeploymentDeps } from './run-deployment';
import { command, makeZip, noDownload, reports, step, useTempFiles } from './test-support';
import type { ZipEntry } from './test-support';

const temp = useTempFiles();

const exists = (p: string) =>
  stat(p).then(
    () => true,
    () => false,
  );

async function runZip(
  entries: ZipEntry[],
  details: Record<string, unknown>,
  options: { rename?: Record<string, string>; deps?: Partial<DeploymentDeps> } = {},
) {
  const r = reports();
  const zip_file = await temp.files.add('app.zip', await makeZip(entries, options.rename));
  const result = await runDeployment(
    command([step(1, 'CUSTOM_ZIP', { zip_file, main_executable: 'bin/run.sh', ...details })]),
    {
      report: r.report,
      fetchFile: temp.files.fetchFile,
      download: noDownload,
      workDir: path.join(temp.dir, 'work'),
      ...options.deps,
    },
  );
  return { r, result, error: r.list.at(-1)?.errorMessage };
}

const RUN = { name: 'bin/run.sh', data: '#!/bin/sh\necho "from zip: $(cat data/value.txt) $1"\n' };
const DATA = { name: 'data/value.txt', data: '42' };

describe('CUSTOM_ZIP steps', () => {
  it('extracts the archive, runs main_executable from it with arguments, and cleans up', async () => {
    const extract = path.join(temp.dir, 'extract');
    const { r, result } = await runZip([RUN, DATA], {
      extract_path: extract,
      arguments: 'hello',
      cleanup: true,
    });
    expect(result.status).toBe('completed');
    expect(r.output(1)).toBe('from zip: 42 hello\n');
    expect(await exists(extract)).toBe(false);
  });

  it('keeps the files when cleanup is off, and removes only its own names from a folder that existed', async () => {
    const keep = path.join(temp.dir, 'keep');
    await runZip([RUN, DATA], { extract_path: keep, cleanup: false });
    expect((await readdir(keep)).sort()).toEqual(['bin', 'data']);

    const shared = path.join(temp.dir, 'shared');
    await mkdir(shared);
    await writeFile(path.join(shared, 'mine.txt'), 'x');
    const { result } = await runZip([RUN, DATA], { extract_path: shared, cleanup: true });
    expect(result.status).toBe('completed');
    expect(await readdir(shared)).toEqual(['mine.txt']);
  });

  it('refuses an entry that climbs out of the extract path (zip slip)', async () => {
    const extract = path.join(temp.dir, 'x', 'extract');
    const { error } = await runZip(
      [RUN, { name: 'zz/evil.txt', data: 'pwned' }],
      { extract_path: extract },
      {
        rename: { 'zz/evil.txt': '../evil.txt' },
      },
    );
    expect(error).toBe('Unsafe ZIP entry refused: ../evil.txt (outside the extract path)');
    expect(await exists(path.join(temp.dir, 'x', 'evil.txt'))).toBe(false);
  });

  it('refuses absolute paths', async () => {
    const { error } = await runZip(
      [RUN, { name: 'ztmp/evil.txt', data: 'pwned' }],
      {},
      {
        rename: { 'ztmp/evil.txt': '/tmp/evil.txt' },
      },
    );
    expect(error).toBe('Unsafe ZIP entry refused: /tmp/evil.txt (outside the extract path)');
  });

  it('refuses symbolic link entries', async () => {
    const { error } = await runZip([RUN, { name: 'link', data: '/etc/passwd', mode: 0o120777 }], {});
    expect(error).toBe('Unsafe ZIP entry refused: link is a symbolic link');
  });

  it('refuses too many entries and too much uncompressed data', async () => {
    const many = await runZip([RUN, DATA, { name: 'c.txt' }], {}, { deps: { zipLimits: { maxEntries: 2 } } });
    expect(many.error).toBe('The ZIP archive holds 3 entries; at most 2 are allowed');
    const big = await runZip(
      [RUN, { name: 'big.bin', data: 'x'.repeat(5000) }],
      {},
      {
        deps: { zipLimits: { maxUncompressedBytes: 1000 } },
      },
    );
    expect(big.error).toBe('The ZIP archive expands to more than 1000 bytes, the limit');
  });

  it('fails clearly when main_executable is not in the archive', async () => {
    const { error } = await runZip([DATA], {});
    expect(error).toBe('Main executable bin/run.sh is not in the ZIP archive');
  });
});
