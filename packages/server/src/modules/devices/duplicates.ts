import { isUsableSerial } from '../../lib/device-identity';

// Duplicate registrations (agent cleanup, beyond operations §4): devices with the same serial number, or the
// same hostname and MAC address, are one machine enrolled more than once. Each group keeps its
// most recently seen device; the others are duplicates.

export type DuplicateCandidate = {
  id: number;
  hostname: string | null;
  serialNumber: string | null;
  lastSeen: Date | null;
  createdAt: Date;
  macs: string[] | null;
};

/** Most recently seen first; never seen counts as oldest; then newest record, then highest id. */
function isNewer(a: DuplicateCandidate, b: DuplicateCandidate): boolean {
  const at = a.lastSeen?.getTime() ?? -Infinity;
  const bt = b.lastSeen?.getTime() ?? -Infinity;
  if (at !== bt) {
    return at > bt;
  }
  if (a.createdAt.getTime() !== b.createdAt.getTime()) {
    return a.createdAt.getTime() > b.createdAt.getTime();
  }
  return a.id > b.id;
}

function identityKeys(d: DuplicateCandidate): string[] {
  const keys: string[] = [];
  if (isUsableSerial(d.serialNumber)) {
    keys.push(`serial:${d.serialNumber.trim().toLowerCase()}`);
  }
  const host = d.hostname?.trim().toLowerCase();
  if (host) {
    for (const mac of d.macs ?? []) {
      keys.push(`host-mac:${host}|${mac}`);
    }
  }
  return keys;
}

/** Returns each duplicate with the device kept in its place. */
export function findDuplicates(list: DuplicateCandidate[]): { id: number; keptId: number }[] {
  const parent = new Map<number, number>();
  const find = (id: number): number => {
    let root = id;
    while (parent.get(root) !== root) {
      root = parent.get(root)!;
    }
    parent.set(id, root);
    return root;
  };
  const owner = new Map<string, number>();
  for (const d of list) {
    parent.set(d.id, d.id);
  }
  for (const d of list) {
    for (const key of identityKeys(d)) {
      const other = owner.get(key);
      if (other === undefined) {
        owner.set(key, d.id);
      } else {
        parent.set(find(d.id), find(other));
      }
    }
  }
  const groups = new Map<number, DuplicateCandidate[]>();
  for (const d of list) {
    const root = find(d.id);
    groups.set(root, [...(groups.get(root) ?? []), d]);
  }
  const out: { id: number; keptId: number }[] = [];
  for (const members of groups.values()) {
    if (members.length < 2) {
      continue;
    }
    const kept = members.reduce((best, d) => (isNewer(d, best) ? d : best));
    for (const d of members) {
      if (d.id !== kept.id) {
        out.push({ id: d.id, keptId: kept.id });
      }
    }
  }
  return out.sort((a, b) => a.id - b.id);
}
