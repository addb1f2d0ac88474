import { describe, expect, it } from 'vitest';
import type { DeviceStatus } from '@outpost/contract/devices';
import { findDuplicateGroups } from './duplicates';
import type { DuplicateCandidate } from './duplicates';

// The duplicate rules (SECURITY.md R2-4) over every small set: three records of one machine, each
// offline or online, never connected or last heard from at one of three times, enrolled in any
// order. Whatever the combination, the rules' promises hold.

const STATUSES: DeviceStatus[] = ['offline', 'online'];
const SEEN = [null, 1_000, 2_000, 3_000];

function* records(id: number): Generator<DuplicateCandidate> {
  for (const status of STATUSES) {
    for (const seen of SEEN) {
      if (status !== 'offline' && seen === null) {
        continue; // a connected record has been heard from
      }
      for (const enrolled of [100, 200, 300]) {
        yield {
          id,
          hostname: 'PC-1',
          serialNumber: 'SER-1',
          status,
          lastSeen: seen === null ? null : new Date(seen),
          createdAt: new Date(enrolled),
          macs: null,
        };
      }
    }
  }
}

function* sets(): Generator<DuplicateCandidate[]> {
  for (const a of records(1)) {
    for (const b of records(2)) {
      for (const c of records(3)) {
        yield [a, b, c];
      }
    }
  }
}

const proof = (d: DuplicateCandidate) => d.lastSeen?.getTime() ?? -Infinity;

describe('duplicate rules', () => {
  it('never removes an online record or one that proved its credentials after the kept one', () => {
    let checked = 0;
    let removedAny = 0;
    let reviewed = 0;
    const broken: string[] = [];
    for (const set of sets()) {
      const [group] = findDuplicateGroups(set);
      const kept = group?.kept;
      if (!group || !kept) {
        broken.push(`no group: ${JSON.stringify(set)}`);
        continue;
      }
      const removed = group.members.filter((m) => m.outcome === 'remove').map((m) => m.device);
      const why = (rule: string) => broken.push(`${rule}: ${JSON.stringify(group.members)}`);
      if (removed.some((d) => d.status !== 'offline')) {
        why('removed an online record');
      }
      if (removed.some((d) => proof(d) > proof(kept))) {
        why('removed a record that proved its credentials after the kept one');
      }
      // the older proven identity is kept: no proven record was enrolled before it
      const proven = set.filter((d) => d.lastSeen !== null);
      const pool = proven.length > 0 ? proven : set;
      if (!pool.includes(kept) || pool.some((d) => d.createdAt < kept.createdAt)) {
        why('kept another than the older proven identity');
      }
      // a conflict keeps the whole set; without one every other record goes
      if (removed.length !== (group.needsReview ? 0 : set.length - 1)) {
        why('removed part of a set in review, or kept a removable record');
      }
      checked += 1;
      removedAny += removed.length > 0 ? 1 : 0;
      reviewed += group.needsReview ? 1 : 0;
    }
    expect(broken.slice(0, 3)).toEqual([]);
    // the combinations exercised both outcomes
    expect(checked).toBeGreaterThan(1000);
    expect(removedAny).toBeGreaterThan(0);
    expect(reviewed).toBeGreaterThan(0);
  });

  it('groups by serial, or by hostname and MAC, and ignores records alone', () => {
    const base = { status: 'offline' as const, lastSeen: null, createdAt: new Date(0) };
    const groups = findDuplicateGroups([
      { ...base, id: 1, hostname: 'A', serialNumber: 'SER-1', macs: null },
      { ...base, id: 2, hostname: 'B', serialNumber: 'ser-1 ', macs: ['aa:01'] },
      { ...base, id: 3, hostname: 'b', serialNumber: null, macs: ['aa:01'] },
      { ...base, id: 4, hostname: 'B', serialNumber: 'Default string', macs: ['aa:02'] },
      { ...base, id: 5, hostname: 'C', serialNumber: 'Default string', macs: null },
    ]);
    expect(groups.map((g) => g.members.map((m) => m.device.id))).toEqual([[1, 2, 3]]);
  });
});
