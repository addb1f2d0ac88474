import fs from 'node:fs';
import path from 'node:path';

// Folders whose contents Outpost trusts must be changeable by the service user (and root) alone:
// whoever can change DATA_DIR can plant `session.key` and forge every session; whoever can change
// AGENT_RELEASES_DIR publishes the executable every agent runs as root (SECURITY.md R2-12).
//
// The rules, checked at start (POSIX only: Windows has no mode bits or owner uids to check):
// - DATA_DIR and BLOB_DIR belong to the service user (private-dir.ts also refuses them writable
//   by group or others);
// - AGENT_RELEASES_DIR, and each file in it, belongs to the service user or root and is writable
//   by neither group nor others;
// - no folder above any of them lets another account replace them: a parent writable by group or
//   others is refused, unless it has the sticky bit and belongs to root or the service user (as
//   /tmp does: then only the owner of an entry can rename or remove it).
// Not checked: a parent owned by another account that is not writable by others (that account
// could still replace the folder); keep these folders under ones owned by root or the service
// user, as /var/lib/outpost and /opt/outpost are.

export class InsecureDirError extends Error {}

const octal = (mode: number) => (mode & 0o7777).toString(8).padStart(3, '0');
const STICKY = 0o1000;
const GROUP_OR_OTHER_WRITE = 0o022;

/** The account the server runs as; null where there is none to check (Windows). */
export function serviceUid(): number | null {
  return process.platform === 'win32' ? null : (process.geteuid?.() ?? null);
}

/** Refuses a folder that belongs to another account than `uid` (or root, when `rootMayOwn`). */
export function checkOwner(
  dir: string,
  stat: fs.Stats,
  label: string,
  uid: number | null,
  rootMayOwn = false,
): void {
  if (uid === null || stat.uid === uid || (rootMayOwn && stat.uid === 0)) {
    return;
  }
  throw new InsecureDirError(
    `${label} ${dir} belongs to another account (uid ${stat.uid}, not the service user's ${uid}): ` +
      `that account could replace what Outpost trusts in it. Give it to the service user ` +
      `(chown -R ${uid} '${dir}') or choose a folder of the service user's, and start again.`,
  );
}

/**
 * Refuses when a folder above `dir` lets other accounts rename or replace `dir`: writable by group
 * or others, unless its sticky bit is set and it belongs to root or the service user.
 */
export function checkAncestors(dir: string, label: string, uid: number | null): void {
  if (uid === null) {
    return;
  }
  for (
    let parent = path.dirname(dir), child = dir;
    parent !== child;
    child = parent, parent = path.dirname(parent)
  ) {
    const stat = fs.statSync(parent, { throwIfNoEntry: false });
    if (!stat || (stat.mode & GROUP_OR_OTHER_WRITE) === 0) {
      continue;
    }
    const isGuarded = (stat.mode & STICKY) !== 0 && (stat.uid === 0 || stat.uid === uid);
    if (!isGuarded) {
      throw new InsecureDirError(
        `${label} ${dir} is inside ${parent}, which other accounts can write to (mode ` +
          `${octal(stat.mode)}): any local user could replace ${label} with a folder of their own. ` +
          `Make the parent writable by its owner only (chmod go-w '${parent}') or move ${label} ` +
          `elsewhere, and start again.`,
      );
    }
  }
}

/**
 * AGENT_RELEASES_DIR at start: when it exists, it and every file in it must belong to the service
 * user or root and be writable by nobody else, and no parent may let others replace it. A missing
 * folder publishes nothing (the release store says so) and is not an error.
 */
export function checkReleasesDir(dir: string, uid: number | null = serviceUid()): void {
  if (uid === null || !fs.existsSync(dir)) {
    return;
  }
  const label = 'AGENT_RELEASES_DIR';
  const stat = fs.statSync(dir);
  checkOwner(dir, stat, label, uid, true);
  if ((stat.mode & GROUP_OR_OTHER_WRITE) !== 0) {
    throw new InsecureDirError(
      `${label} ${dir} is writable by other accounts (mode ${octal(stat.mode)}): any local user ` +
        `could publish the executable every agent runs as root. Make it writable by its owner only ` +
        `(chmod go-w '${dir}') and start again.`,
    );
  }
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    // what a symbolic link points at is what the release store serves
    const fileStat = fs.statSync(file, { throwIfNoEntry: false });
    if (!fileStat) {
      continue;
    }
    checkOwner(file, fileStat, `${label} file`, uid, true);
    if ((fileStat.mode & GROUP_OR_OTHER_WRITE) !== 0) {
      throw new InsecureDirError(
        `${label} file ${file} is writable by other accounts (mode ${octal(fileStat.mode)}): any ` +
          `local user could change what agents run. Make it writable by its owner only ` +
          `(chmod go-w '${file}') and start again.`,
      );
    }
  }
  checkAncestors(dir, label, uid);
}
