import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import type { Stats } from 'node:fs';
import { lstat, mkdir, open, realpath, rm, stat } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import path from 'node:path';

// SECURITY.md "The agent's file-handling rules": the agent runs as root (SYSTEM on Windows), so
// every folder it stages deployment files in must be one no other local account can enter,
// replace or redirect, and every file it runs must be the bytes it verified. The folders are
// checked with lstat (a symbolic link is refused, never followed), their owner and mode are
// checked, files are created with O_EXCL|O_NOFOLLOW and hashed while they are written, and the
// execute bit is set through the open descriptor before it is closed.

/** A folder or file the agent refuses to use; the message goes to the step log as it is. */
export class UnsafePathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnsafePathError';
  }
}

/** The bytes written do not hash to the expected sha256; `actual` is what they hash to. */
export class IntegrityError extends Error {
  constructor(
    readonly actual: string,
    readonly expected: string,
  ) {
    super(`sha256 ${actual} does not match the expected ${expected}`);
    this.name = 'IntegrityError';
  }
}

export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_EXEC_MODE = 0o700;

/** The account whose folders the agent accepts: its own. Windows: null (ACLs decide there). */
export function agentUid(platform: NodeJS.Platform = process.platform): number | null {
  return platform === 'win32' ? null : (process.getuid?.() ?? null);
}

/** One path component: no separator, not "." or "..". */
const isPlainName = (name: string) => name !== '' && name !== '.' && name !== '..' && !/[\\/]/.test(name);

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

async function lstatOrNull(p: string): Promise<Stats | null> {
  try {
    return await lstat(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
      return null;
    }
    throw err;
  }
}

/**
 * Checks the folders above the agent's own: each one on the real path (links resolved) must
 * belong to root or to the agent, and one that others may write to must have the sticky bit
 * (as /tmp), so no other account can rename the agent's folder away and put its own there.
 */
export async function checkAncestors(dir: string, uid: number | null): Promise<void> {
  if (uid === null) {
    return;
  }
  let current = await realpath(dir);
  for (;;) {
    const st = await stat(current);
    if (st.uid !== 0 && st.uid !== uid) {
      throw new UnsafePathError(
        `The folder ${current} above the agent's work folder belongs to another account (uid ${st.uid}); ` +
          `refusing to stage files under it. Give it to root (chown root '${current}') or move the agent's state folder.`,
      );
    }
    const isSticky = (st.mode & constants.S_IFMT) === constants.S_IFDIR && (st.mode & 0o1000) !== 0;
    if ((st.mode & 0o022) !== 0 && !isSticky) {
      throw new UnsafePathError(
        `The folder ${current} above the agent's work folder is writable by other accounts (mode ${octal(st.mode)}); ` +
          `refusing to stage files under it. Make it private (chmod go-w '${current}').`,
      );
    }
    const parent = path.dirname(current);
    if (parent === current) {
      return;
    }
    current = parent;
  }
}

/**
 * Creates `dir` (0700) when it is missing, in a parent that must exist, then checks what is
 * there: a real folder (a symbolic link or junction is refused, never followed), owned by the
 * agent, that no other account may write to. A folder that others can only read is made private.
 */
export async function ensurePrivateDir(dir: string, uid: number | null): Promise<void> {
  if ((await lstatOrNull(dir)) === null) {
    // not recursive: only the last component is created, and mkdir never follows a link there
    await mkdir(dir, { mode: PRIVATE_DIR_MODE }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') {
        throw err;
      }
    });
  }
  const st = await lstat(dir);
  if (st.isSymbolicLink()) {
    throw new UnsafePathError(
      `The agent's work folder ${dir} is a symbolic link; refusing to use it. Remove it and the agent creates a private folder.`,
    );
  }
  if (!st.isDirectory()) {
    throw new UnsafePathError(`The agent's work folder ${dir} is not a folder; refusing to use it.`);
  }
  if (uid === null) {
    return;
  }
  if (st.uid !== uid) {
    throw new UnsafePathError(
      `The agent's work folder ${dir} belongs to another account (uid ${st.uid}); refusing to use it. ` +
        `Remove it and the agent creates a private folder.`,
    );
  }
  if ((st.mode & 0o022) !== 0) {
    throw new UnsafePathError(
      `The agent's work folder ${dir} is writable by other accounts (mode ${octal(st.mode)}); refusing to use it. ` +
        `Remove it and the agent creates a private folder.`,
    );
  }
  if ((st.mode & 0o077) !== 0) {
    // ours, and nobody else could write to it: only make it unreadable to others too
    const handle = await open(dir, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    await handle.chmod(PRIVATE_DIR_MODE).finally(() => handle.close());
  }
}

/**
 * The agent's work folder and the folders it makes inside it: the parent of `root` is created
 * if missing and checked with every folder above it, then `root` and each of `inside` (one
 * component each) are created private and checked one by one.
 */
export async function preparePrivateFolders(
  root: string,
  inside: readonly string[],
  uid: number | null,
): Promise<string> {
  const parent = path.dirname(root);
  await mkdir(parent, { recursive: true, mode: PRIVATE_DIR_MODE });
  await checkAncestors(parent, uid);
  await ensurePrivateDir(root, uid);
  let current = root;
  for (const name of inside) {
    if (!isPlainName(name)) {
      throw new UnsafePathError(`Not a folder name: ${JSON.stringify(name)}`);
    }
    current = path.join(current, name);
    await ensurePrivateDir(current, uid);
  }
  return current;
}

export type FileBody = AsyncIterable<Uint8Array> | Uint8Array | string;

export type WrittenFile = { path: string; sha256: string; size: number };

export type WriteOptions = {
  signal?: AbortSignal;
  /** the bytes must hash to this (hex, any case); otherwise the file is removed (IntegrityError) */
  expectedSha256?: string;
  /** set the execute bit (owner only) through the descriptor, before it is closed */
  isExecutable?: boolean;
  platform?: NodeJS.Platform;
};

/** Flags for a new file: never an existing one, never through a symbolic link. */
export const NEW_FILE_FLAGS =
  constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0);

async function writeAll(handle: FileHandle, chunk: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < chunk.length) {
    const { bytesWritten } = await handle.write(chunk, offset, chunk.length - offset);
    offset += bytesWritten;
  }
}

async function* chunks(body: FileBody): AsyncIterable<Uint8Array> {
  if (typeof body === 'string') {
    yield Buffer.from(body, 'utf8');
  } else if (body instanceof Uint8Array) {
    yield body;
  } else {
    yield* body;
  }
}

/**
 * Writes `body` to a new file `name` in `dir` (a folder from preparePrivateFolders) through one
 * descriptor: created 0600 with O_EXCL|O_NOFOLLOW, hashed exactly as written, checked against
 * `expectedSha256`, made executable by fchmod, closed. The file is removed if anything fails, so
 * nothing unverified is left behind to run.
 */
export async function writePrivateFile(
  dir: string,
  name: string,
  body: FileBody,
  options: WriteOptions = {},
): Promise<WrittenFile> {
  if (!isPlainName(name)) {
    throw new UnsafePathError(`Not a file name: ${JSON.stringify(name)}`);
  }
  const file = path.join(dir, name);
  const handle = await open(file, NEW_FILE_FLAGS, PRIVATE_FILE_MODE);
  const hash = createHash('sha256');
  let size = 0;
  let isDone = false;
  try {
    for await (const chunk of chunks(body)) {
      options.signal?.throwIfAborted();
      hash.update(chunk);
      await writeAll(handle, chunk);
      size += chunk.length;
    }
    options.signal?.throwIfAborted();
    const sha256 = hash.digest('hex');
    const expected = options.expectedSha256?.toLowerCase();
    if (expected !== undefined && sha256 !== expected) {
      throw new IntegrityError(sha256, expected);
    }
    if (options.isExecutable && (options.platform ?? process.platform) !== 'win32') {
      await handle.chmod(PRIVATE_EXEC_MODE);
    }
    isDone = true;
    return { path: file, sha256, size };
  } finally {
    await handle.close();
    if (!isDone) {
      await rm(file, { force: true });
    }
  }
}
