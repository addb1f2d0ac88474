import fs from 'node:fs';
import path from 'node:path';
import { InsecureDirError, checkAncestors, checkOwner, serviceUid } from './dir-trust';

// The embedded database and the blob store hold every tenant's data, roles and package files:
// they belong to the service user alone. Folders are 0700 and files 0600 whatever the process
// umask was, and a data folder that other accounts can write to, own or replace stops the server
// at start (a local account could otherwise rewrite roles, swap a package's installer or plant
// the session key).

/** Files and folders the process creates from now on are private (rw for the owner only). */
export const PRIVATE_UMASK = 0o077;
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

export { InsecureDirError };

const octal = (mode: number) => (mode & 0o777).toString(8).padStart(3, '0');

/**
 * Creates `dir` (0700) when it is missing; refuses (InsecureDirError) when a folder above it lets
 * other accounts replace it, or when it exists and is not a folder, belongs to another account or
 * is writable by the group or others (dir-trust.ts); otherwise makes it 0700.
 */
export function ensurePrivateDir(dir: string, label = 'DATA_DIR', uid: number | null = serviceUid()): void {
  checkAncestors(dir, label, uid);
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stat = fs.statSync(dir);
  if (!stat.isDirectory()) {
    throw new InsecureDirError(`${label} ${dir} is not a folder.`);
  }
  checkOwner(dir, stat, label, uid);
  if ((stat.mode & 0o022) !== 0) {
    throw new InsecureDirError(
      `${label} ${dir} is writable by other accounts (mode ${octal(stat.mode)}): any local user could ` +
        `rewrite the data in it. Make it private to the service user (chmod 700 '${dir}') and start again.`,
    );
  }
  if ((stat.mode & 0o777) !== PRIVATE_DIR_MODE) {
    fs.chmodSync(dir, PRIVATE_DIR_MODE);
  }
}

/**
 * PGlite's file system layer (Emscripten NODEFS) chmods every file it creates to 0666, whatever
 * the umask; the database client runs this over its folder once it is open and migrated. Files it
 * creates later may be 0666 again, but they sit in 0700 folders that no other account can enter.
 *
 * Makes everything under `dir` private: folders 0700, files 0600. Walks without recursion and
 * never follows symbolic links (a link is left alone, and so is what it points at).
 */
export function tightenTree(dir: string): void {
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if (entry.isSymbolicLink()) {
        continue;
      }
      const wanted = entry.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE;
      if ((fs.lstatSync(full).mode & 0o777) !== wanted) {
        fs.chmodSync(full, wanted);
      }
      if (entry.isDirectory()) {
        pending.push(full);
      }
    }
  }
}

/**
 * Called once at start, before the database opens: sets the umask, checks DATA_DIR and BLOB_DIR
 * (refusing when others can write to them) and tightens what an earlier version left readable.
 */
export function preparePrivateDirs(dirs: { dataDir: string; blobDir: string }): void {
  process.umask(PRIVATE_UMASK);
  ensurePrivateDir(dirs.dataDir, 'DATA_DIR');
  ensurePrivateDir(dirs.blobDir, 'BLOB_DIR');
  tightenTree(dirs.dataDir);
  if (!isInside(dirs.dataDir, dirs.blobDir)) {
    tightenTree(dirs.blobDir);
  }
}

function isInside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
