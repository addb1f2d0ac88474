import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runDeployment } from './run-deployment';
import type { DeploymentDeps } from './run-deployment';
import { command, makeZip, noDownload, reports, step, useTempFiles } from '../../test/support/steps';
import type { ZipEntry } from '../../test/support/steps';

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

/** Overwrites the sizes an archive declares for its entries (local and central headers). */
function lieAboutSizes(zip: Buffer, uncompressedSize: number): Buffer {
  const out = Buffer.from(zip);
  for (let at = out.indexOf(LOCAL_HEADER); at >= 0; at = out.indexOf(LOCAL_HEADER, at + 4)) {
    out.writeUInt32LE(uncompressedSize, at + 22);
  }
  for (let at = out.indexOf(CENTRAL_HEADER); at >= 0; at = out.indexOf(CENTRAL_HEADER, at + 4)) {
    out.writeUInt32LE(uncompressedSize, at + 24);
  }
  return out;
}
const LOCAL_HEADER = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const CENTRAL_HEADER = Buffer.from([0x50, 0x4b, 0x01, 0x02]);

describe('CUSTOM_ZIP: hostile archives', () => {
  async function runArchive(
    zip: Buffer,
    details: Record<string, unknown> = {},
    deps: Partial<DeploymentDeps> = {},
  ) {
    const r = reports();
    const zip_file = await temp.files.add('hostile.zip', zip);
    const result = await runDeployment(
      command([step(1, 'CUSTOM_ZIP', { zip_file, main_executable: 'bin/run.sh', ...details })]),
      {
        report: r.report,
        fetchFile: temp.files.fetchFile,
        download: noDownload,
        workDir: path.join(temp.dir, 'work'),
        ...deps,
      },
    );
    return { result, error: r.list.at(-1)?.errorMessage };
  }

  it('refuses a compression bomb by its declared size before writing a byte (default limits too)', async () => {
    // 8 MiB of zeros deflate to a few KiB: the declared size is what counts
    const extract = path.join(temp.dir, 'bomb');
    const zip = await makeZip([RUN, { name: 'zeros.bin', data: '\u0000'.repeat(8 * 1024 * 1024) }]);
    expect(zip.length).toBeLessThan(64 * 1024);
    const { result, error } = await runArchive(
      zip,
      { extract_path: extract },
      { zipLimits: { maxEntries: 100, maxUncompressedBytes: 1024 * 1024 } },
    );
    expect(result.status).toBe('failed');
    expect(error).toBe('The ZIP archive expands to more than 1 MiB, the limit');
    expect(await exists(path.join(extract, 'zeros.bin'))).toBe(false);

    // an archive declaring 4 GiB − 1 per entry passes the default 2 GiB limit with its first two
    const declared = lieAboutSizes(await makeZip([RUN, { name: 'a.bin' }, { name: 'b.bin' }]), 0xffffffff);
    const huge = await runArchive(declared, { extract_path: path.join(temp.dir, 'huge') });
    expect(huge.error).toBe('The ZIP archive expands to more than 2048 MiB, the limit');
  });

  it('refuses an archive whose header understates an entry (a lying header), without writing more than declared', async () => {
    const extract = path.join(temp.dir, 'liar');
    const zip = lieAboutSizes(await makeZip([{ name: 'data/big.bin', data: 'y'.repeat(200_000) }, RUN]), 100);
    const { result, error } = await runArchive(zip, { extract_path: extract });
    expect(result.status).toBe('failed');
    expect(error).toMatch(/^The ZIP archive could not be extracted: .*too many bytes/);
    const written = await stat(path.join(extract, 'data', 'big.bin')).then(
      (s) => s.size,
      () => 0,
    );
    expect(written).toBeLessThanOrEqual(100);
  });

  it('refuses too many entries by the count the archive declares, before extracting any (default limit 10,000)', async () => {
    // the end-of-central-directory record claims 10,001 entries: refused before any is read
    const extract = path.join(temp.dir, 'many');
    const zip = await makeZip([RUN, DATA]);
    const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
    zip.writeUInt16LE(10_001, eocd + 8);
    zip.writeUInt16LE(10_001, eocd + 10);
    const { error } = await runArchive(zip, { extract_path: extract });
    expect(error).toBe('The ZIP archive holds 10001 entries; at most 10000 are allowed');
    expect(await exists(extract)).toBe(false);
  });

  it.each([
    ['../evil.txt', 'zz/evil.txt'],
    ['a/../../e.txt', 'zzzzzzzzzzzzz'],
    ['/etc/evil.txt', 'zzzz/evil.txt'],
    ['C:/evil.txt', 'zz/evil.txt'],
    ['C:\\evil.txt', 'zz/evil.txt'],
    ['..\\evil.txt', 'zz/evil.txt'],
    ['a\\..\\..\\e.tx', 'zzzzzzzzzzzzz'],
    ['\\\\srv\\sh\\e.tx', 'zzzzzzzzzzzzz'],
  ])('refuses the entry %s with a clear step error, writing nothing outside', async (evil, placeholder) => {
    const root = path.join(temp.dir, `t-${placeholder.length}-${evil.length}-${Date.now()}`);
    const extract = path.join(root, 'extract');
    const { result, error } = await runArchive(
      await makeZip([RUN, { name: placeholder, data: 'pwned' }], { [placeholder]: evil }),
      { extract_path: extract },
    );
    expect(result.status).toBe('failed');
    expect(error).toMatch(/^Unsafe ZIP entry refused: .* \(outside the extract path\)$/);
    expect(await exists(path.join(root, 'evil.txt'))).toBe(false);
    expect(await exists(path.join(root, 'e.txt'))).toBe(false);
  });

  it('refuses a symbolic link entry before a file that would be written through it', async () => {
    const extract = path.join(temp.dir, 'links');
    const outside = path.join(temp.dir, 'outside');
    await mkdir(outside);
    const { error } = await runArchive(
      await makeZip([
        { name: 'escape', data: outside, mode: 0o120777 },
        { name: 'escape/evil.txt', data: 'pwned' },
        RUN,
      ]),
      { extract_path: extract },
    );
    expect(error).toBe('Unsafe ZIP entry refused: escape is a symbolic link');
    expect(await readdir(outside)).toEqual([]);
  });

  it('extracts names with control characters inside the extract path only', async () => {
    const extract = path.join(temp.dir, 'ctrl');
    const { result } = await runArchive(
      await makeZip([RUN, { name: 'data/zz\u0001\u001b[31m\nx.txt', data: 'ok' }]),
      { extract_path: extract, cleanup: false },
    );
    expect(result.status).toBe('completed');
    expect(await readdir(path.join(extract, 'data'))).toEqual(['zz\u0001\u001b[31m\nx.txt']);
  });
});
