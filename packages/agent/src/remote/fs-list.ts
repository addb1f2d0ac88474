import fs from 'node:fs';
import path from 'node:path';
import type { FsEntry, FsListResultMessage } from '@outpost/contract/agent-protocol';

// A folder's entries for the Files tab (docs/agent.md "Remote access"): read with opendir and
// lstat only, never through a shell, so a path is only ever a path. The count is bounded (the
// answer says `truncated`); a link is shown as a link, not followed. On Windows the top ("" or
// "/") is the list of drives.

export const LIST_LIMIT = 2000;

export type Platform = 'win32' | 'posix';
export const hostPlatform = (): Platform => (process.platform === 'win32' ? 'win32' : 'posix');

const pathsOf = (platform: Platform) => (platform === 'win32' ? path.win32 : path.posix);

/** The absolute form of a path the server sent (relative paths start at the file system's top). */
export function absolutePath(p: string, platform: Platform): string {
  const paths = pathsOf(platform);
  if (platform === 'win32') {
    return paths.isAbsolute(p) && /^[A-Za-z]:/.test(p) ? paths.normalize(p) : paths.resolve('C:\\', p);
  }
  return paths.resolve('/', p);
}

const isTop = (p: string) => p === '' || p === '/' || p === '\\';

/** Why a folder could not be read, in words. */
export function describeFsError(err: unknown, p: string): string {
  const code = (err as { code?: string } | null)?.code ?? '';
  switch (code) {
    case 'ENOENT':
      return `No such file or folder: ${p}`;
    case 'EACCES':
    case 'EPERM':
      return `Permission denied: ${p}`;
    case 'ENOTDIR':
      return `Not a folder: ${p}`;
    case 'EISDIR':
      return `A folder, not a file: ${p}`;
    case 'EEXIST':
      return `A file with this name already exists: ${p}`;
    default:
      return err instanceof Error ? err.message : String(err);
  }
}

async function drives(): Promise<FsEntry[]> {
  const found: FsEntry[] = [];
  for (const letter of 'ABCDEFGHIJKLMNOPQRSTUVWXYZ') {
    const root = `${letter}:\\`;
    try {
      await fs.promises.access(root);
      found.push({ name: root, kind: 'dir', size: null, modifiedAt: null });
    } catch {
      // no such drive
    }
  }
  return found;
}

async function entryOf(folder: string, dirent: fs.Dirent, platform: Platform): Promise<FsEntry> {
  const kindOf = (d: { isDirectory(): boolean; isFile(): boolean; isSymbolicLink(): boolean }) =>
    d.isSymbolicLink() ? 'link' : d.isDirectory() ? 'dir' : d.isFile() ? 'file' : 'other';
  try {
    const st = await fs.promises.lstat(pathsOf(platform).join(folder, dirent.name));
    return {
      name: dirent.name,
      kind: kindOf(st),
      size: st.isFile() ? st.size : null,
      modifiedAt: st.mtime.toISOString(),
    };
  } catch {
    return { name: dirent.name, kind: kindOf(dirent), size: null, modifiedAt: null };
  }
}

/** Lists `requested` (at most `limit` entries) as the answer to request `requestId`. */
export async function listFolder(
  requestId: string,
  requested: string,
  platform: Platform = hostPlatform(),
  limit = LIST_LIMIT,
): Promise<FsListResultMessage> {
  if (platform === 'win32' && isTop(requested)) {
    return { type: 'fs_list_result', requestId, path: '', entries: await drives() };
  }
  const folder = absolutePath(requested, platform);
  const entries: FsEntry[] = [];
  let truncated = false;
  try {
    const dir = await fs.promises.opendir(folder);
    for await (const dirent of dir) {
      if (entries.length >= limit) {
        truncated = true;
        break;
      }
      entries.push(await entryOf(folder, dirent, platform));
    }
  } catch (err) {
    return {
      type: 'fs_list_result',
      requestId,
      path: folder,
      entries: [],
      error: describeFsError(err, folder),
    };
  }
  return { type: 'fs_list_result', requestId, path: folder, entries, truncated };
}
