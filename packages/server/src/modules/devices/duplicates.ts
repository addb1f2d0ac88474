import type { DeviceStatus } from '@outpost/contract/devices';
import type { DuplicateReason } from '@outpost/contract/device-cleanup';
import { isUsableSerial } from '../../lib/device-identity';

// Duplicate registrations (agent cleanup, beyond docs/product/administration.md#agent-cleanup): devices with the same serial
// number, or the same hostname and MAC address, look like one machine enrolled more than once.
// Those facts are whatever the agents report, so an impostor enrolled with a stolen token can
// claim a real machine's hostname and serial (SECURITY.md R2-4). What an agent cannot fake is
// another record's credentials: each record's last_seen moves only on a message over a socket
// authenticated with that record's own secret. So:
//   - the record kept is the older proven identity: enrolled first among those whose agent has
//     connected (enrolled first of all when none has);
//   - another record is removed only when it is offline and has not proved its credentials
//     since the kept record last did;
//   - when any record breaks that rule, the rules conflict: every record of the set is kept and
//     the set is reported for the administrator to review.

export type DuplicateCandidate = {
  id: number;
  hostname: string | null;
  serialNumber: string | null;
  status: DeviceStatus;
  /** the last message over the record's authenticated agent socket; null: never connected */
  lastSeen: Date | null;
  createdAt: Date;
  macs: string[] | null;
};

export type DuplicateMember<T extends DuplicateCandidate> = {
  device: T;
  outcome: 'keep' | 'remove' | 'review';
  reason: DuplicateReason;
};

export type DuplicateGroup<T extends DuplicateCandidate> = {
  kept: T;
  needsReview: boolean;
  /** in id order */
  members: DuplicateMember<T>[];
};

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

/** Records that share an identity key, directly or through another record (union-find). */
function groupsOf<T extends DuplicateCandidate>(list: T[]): T[][] {
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
  const groups = new Map<number, T[]>();
  for (const d of list) {
    const root = find(d.id);
    groups.set(root, [...(groups.get(root) ?? []), d]);
  }
  return [...groups.values()].filter((g) => g.length > 1);
}

const enrolledBefore = (a: DuplicateCandidate, b: DuplicateCandidate) =>
  a.createdAt.getTime() !== b.createdAt.getTime()
    ? a.createdAt.getTime() < b.createdAt.getTime()
    : a.id < b.id;

/** The older proven identity: enrolled first among the records that connected, else first. */
function preferred<T extends DuplicateCandidate>(members: T[]): { kept: T; reason: DuplicateReason } {
  const proven = members.filter((d) => d.lastSeen !== null);
  const pool = proven.length > 0 ? proven : members;
  const kept = pool.reduce((best, d) => (enrolledBefore(d, best) ? d : best));
  return { kept, reason: proven.length > 0 ? 'first_proven' : 'first_enrolled' };
}

/** Why this record may not be removed in favour of `kept`, or null when it may. */
function mustStay(d: DuplicateCandidate, kept: DuplicateCandidate): DuplicateReason | null {
  if (d.status !== 'offline') {
    return 'online';
  }
  const keptProof = kept.lastSeen?.getTime() ?? -Infinity;
  if (d.lastSeen !== null && d.lastSeen.getTime() > keptProof) {
    return 'proved_later';
  }
  return null;
}

/** Every duplicate set in `list`, with the record kept and each record's outcome and reason. */
export function findDuplicateGroups<T extends DuplicateCandidate>(list: T[]): DuplicateGroup<T>[] {
  return groupsOf(list)
    .map((group) => {
      const members = [...group].sort((a, b) => a.id - b.id);
      const { kept, reason } = preferred(members);
      const blockers = new Map(members.filter((d) => d !== kept).map((d) => [d.id, mustStay(d, kept)]));
      const needsReview = [...blockers.values()].some((r) => r !== null);
      return {
        kept,
        needsReview,
        members: members.map((device): DuplicateMember<T> => {
          if (device === kept) {
            return { device, outcome: 'keep', reason };
          }
          const blocker = blockers.get(device.id) ?? null;
          if (!needsReview) {
            return { device, outcome: 'remove', reason: 'duplicate' };
          }
          return { device, outcome: 'review', reason: blocker ?? 'set_in_review' };
        }),
      };
    })
    .sort((a, b) => a.kept.id - b.kept.id);
}
