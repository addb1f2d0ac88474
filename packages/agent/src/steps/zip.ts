import { constants } from 'node:fs';
import { mkdir, open } from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import type { ZipLimits } from './context';
import { StepError, errorText } from './context';

// Safe extraction of a CUSTOM_ZIP archive. yauzl reads the central directory, so entry count and
// declared sizes are known before any byte is written, and it checks that each entry inflates to
// exactly its declared size. We add: no entry outside the extract path (`../`, absolute paths,
// drive letters), no symbolic links, and limits on entries and total uncompressed size. Files
// are opened without following a link planted where one lands, and the main executable gets its
// execute bit through the descriptor it was written with.

/** Create or replace, never through a symbolic link at the entry's own name. */
const EXTRACT_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | (constants.O_NOFOLLOW ?? 0);

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

function formatSize(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(0)} MiB` : `${bytes} bytes`;
}

/** Where an entry lands inside `root`, or a StepError when it would land anywhere else. */
export function entryTarget(root: string, name: string): string {
  const unsafe = () => new StepError(`Unsafe ZIP entry refused: ${name} (outside the extract path)`, false);
  if (name.includes('\\') || name.startsWith('/') || /^[A-Za-z]:/.test(name)) {
    throw unsafe();
  }
  if (name.split('/').includes('..')) {
    throw unsafe();
  }
  const target = path.resolve(root, name);
  if (target !== root && !target.startsWith(root + path.sep)) {
    throw unsafe();
  }
  return target;
}

/** yauzl's own name checks say the same thing in other words; keep ours in the step log. */
function translate(err: unknown): unknown {
  if (err instanceof StepError) {
    return err;
  }
  const message = errorText(err);
  const unsafeName = /^(invalid relative path|absolute path|invalid characters in fileName): (.*)$/.exec(
    message,
  );
  if (unsafeName) {
    return new StepError(`Unsafe ZIP entry refused: ${unsafeName[2]} (outside the extract path)`, false);
  }
  return new StepError(`The ZIP archive could not be extracted: ${message}`, false);
}

export type ExtractOptions = {
  /** Adds the top-level names it writes as it goes (also when it stops half-way) */
  written?: Set<string>;
  /** the extracted file (an absolute path inside root) made executable as it is written */
  executablePath?: string;
  platform?: NodeJS.Platform;
};

/**
 * Extracts `zipFile` into `root` (created if missing). The top-level names written go to
 * `options.written`, so a cleanup can remove exactly those from a folder that held other files
 * before. Resolves to whether `options.executablePath` was among the files written.
 */
export async function extractZip(
  zipFile: string,
  root: string,
  limits: ZipLimits,
  options: ExtractOptions = {},
): Promise<{ hasExecutable: boolean }> {
  const written = options.written ?? new Set<string>();
  const isPosix = (options.platform ?? process.platform) !== 'win32';
  let hasExecutable = false;
  const absRoot = path.resolve(root);
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(zipFile, { validateEntrySizes: true });
  } catch (err) {
    throw translate(err);
  }
  try {
    if (zip.entryCount > limits.maxEntries) {
      throw new StepError(
        `The ZIP archive holds ${zip.entryCount} entries; at most ${limits.maxEntries} are allowed`,
        false,
      );
    }
    let total = 0;
    await mkdir(absRoot, { recursive: true });
    for await (const entry of zip.eachEntry()) {
      const name = entry.fileName;
      if (((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK) {
        throw new StepError(`Unsafe ZIP entry refused: ${name} is a symbolic link`, false);
      }
      const target = entryTarget(absRoot, name);
      total += entry.uncompressedSize;
      if (total > limits.maxUncompressedBytes) {
        throw new StepError(
          `The ZIP archive expands to more than ${formatSize(limits.maxUncompressedBytes)}, the limit`,
          false,
        );
      }
      const first = name.split('/')[0];
      if (first) {
        written.add(first);
      }
      if (name.endsWith('/')) {
        await mkdir(target, { recursive: true });
        continue;
      }
      await mkdir(path.dirname(target), { recursive: true });
      const isExecutable = target === options.executablePath;
      const handle = await open(target, EXTRACT_FLAGS, 0o644);
      const stream = await zip.openReadStreamPromise(entry).catch(async (err: unknown) => {
        await handle.close();
        throw err;
      });
      // pipeline reports the entry's first error; yauzl's inner streams may emit another after it
      // gave up (a lying size header, on Node 24), which must not become an uncaught exception
      stream.on('error', () => undefined);
      if (isExecutable && isPosix) {
        await handle.chmod(0o755).catch(async (err: unknown) => {
          await handle.close();
          throw err;
        });
      }
      // the write stream closes the descriptor when it ends or fails
      await pipeline(stream, handle.createWriteStream());
      hasExecutable ||= isExecutable;
    }
    return { hasExecutable };
  } catch (err) {
    throw translate(err);
  } finally {
    zip.close();
  }
}
