import { readFile, statfs } from 'node:fs/promises';
import type { VolumeSpace } from './evaluators';

// The machine's real volumes and their space. Linux lists them from /proc/mounts (nothing to
// load, nothing to start); Windows and macOS ask systeminformation once in a while (through the
// probes, inventory/probes.ts) for the mount points. The space of each comes from statfs, which
// costs one system call.

/** File systems that hold data; pseudo (proc, tmpfs, cgroup), overlay and image mounts are not volumes. */
const DATA_FILE_SYSTEMS = new Set([
  'ext2',
  'ext3',
  'ext4',
  'xfs',
  'btrfs',
  'zfs',
  'vfat',
  'exfat',
  'ntfs',
  'ntfs3',
  'fuseblk',
  'f2fs',
  'jfs',
  'reiserfs',
  'hfsplus',
  'apfs',
  'nfs',
  'nfs4',
  'cifs',
]);

/** /proc/mounts' octal escapes (\040 is a space in a mount point). */
const unescapeMount = (s: string) =>
  s.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)));

/**
 * The mount points of /proc/mounts that are volumes: data file systems, each device once (a bind
 * mount repeats it), and `/` always (a container's root is an overlay, and still its disk).
 */
export function parseProcMounts(text: string): string[] {
  const seen = new Set<string>();
  const mounts: string[] = [];
  for (const line of text.split('\n')) {
    const [source, target, type] = line.split(' ');
    if (!source || !target || !type) {
      continue;
    }
    const mount = unescapeMount(target);
    const isRoot = mount === '/';
    if (!isRoot && (!DATA_FILE_SYSTEMS.has(type) || seen.has(source))) {
      continue;
    }
    if (mounts.includes(mount)) {
      continue;
    }
    seen.add(source);
    mounts.push(mount);
  }
  return mounts.sort((a, b) => (a === '/' ? -1 : b === '/' ? 1 : a.localeCompare(b)));
}

/** A volume's space as `df` counts it: free is what an ordinary user may still write. */
export async function volumeSpace(mount: string): Promise<VolumeSpace | null> {
  try {
    // a drive letter alone (C:) names the current folder of that drive: statfs its root
    const s = await statfs(/^[A-Za-z]:$/.test(mount) ? `${mount}\\` : mount);
    const used = (s.blocks - s.bfree) * s.bsize;
    const free = s.bavail * s.bsize;
    if (used + free <= 0) {
      return null;
    }
    return { mount, totalBytes: used + free, freeBytes: free };
  } catch {
    return null; // gone since it was listed, or not readable: not a volume this minute
  }
}

/** How long a volume list from systeminformation is kept (Windows, macOS). */
const LIST_TTL_MS = 10 * 60_000;

/** The machine's volumes with their space; `listMounts` is asked at most every LIST_TTL_MS. */
export function createVolumeSource(
  listMounts: () => Promise<string[]>,
  now: () => number = Date.now,
): () => Promise<VolumeSpace[]> {
  let cached: { at: number; mounts: string[] } | null = null;
  return async () => {
    if (!cached || now() - cached.at > LIST_TTL_MS) {
      cached = { at: now(), mounts: await listMounts() };
    }
    const spaces = await Promise.all(cached.mounts.map(volumeSpace));
    return spaces.filter((s): s is VolumeSpace => s !== null);
  };
}

/** Linux: /proc/mounts each time (it is a read of kernel memory). */
export const linuxMounts = async (): Promise<string[]> =>
  parseProcMounts(await readFile('/proc/mounts', 'utf8'));
