import si from 'systeminformation';

// The volumes' mount points for the metrics and disk checks on Windows and macOS (Linux reads
// /proc/mounts: monitoring/volumes.ts). Loaded with the other probes (inventory/probes.ts).

/** Mount points (/, /Volumes/Data) or drives (C:) of the machine's file systems that hold data. */
export async function collectVolumeMounts(): Promise<string[]> {
  const sizes = await si.fsSize();
  const mounts = sizes
    .filter((s) => s.size > 0 && s.mount !== '' && !/^\/(System\/Volumes|private\/var\/vm)\b/.test(s.mount))
    .map((s) => s.mount);
  return [...new Set(mounts)];
}
