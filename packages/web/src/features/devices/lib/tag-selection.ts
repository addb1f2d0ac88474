import type { DeviceTag } from '@outpost/contract/tags';

// What the tag dialog shows and sends (docs/product/device-sets.md#tags): for each tag, whether
// all, some or none of the chosen devices carry it; what the person set it to; and from the two,
// the tags to add and to remove.

export type TagState = 'all' | 'some' | 'none';

/** How many of the devices carry each tag, as all / some (none is absent). */
export function initialTagStates(devices: { tags?: DeviceTag[] }[]): Map<number, TagState> {
  const counts = new Map<number, number>();
  for (const d of devices) {
    for (const t of d.tags ?? []) {
      counts.set(t.id, (counts.get(t.id) ?? 0) + 1);
    }
  }
  const states = new Map<number, TagState>();
  for (const [id, n] of counts) {
    states.set(id, n === devices.length ? 'all' : 'some');
  }
  return states;
}

/** The change to send: tags now set on all that were not, tags now off that some carried. */
export function tagChanges(
  initial: ReadonlyMap<number, TagState>,
  chosen: ReadonlyMap<number, TagState>,
): { add: number[]; remove: number[] } {
  const add: number[] = [];
  const remove: number[] = [];
  for (const [id, state] of chosen) {
    const before = initial.get(id) ?? 'none';
    if (state === 'all' && before !== 'all') {
      add.push(id);
    } else if (state === 'none' && before !== 'none') {
      remove.push(id);
    }
  }
  return { add, remove };
}

/** A click on a tag: some → all, all → none, none → all. */
export const nextTagState = (state: TagState): TagState => (state === 'all' ? 'none' : 'all');
