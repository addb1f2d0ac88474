import { describe, expect, it } from 'vitest';
import { initialTagStates, nextTagState, tagChanges } from './tag-selection';

const tag = (id: number) => ({ id, name: `t${id}`, color: 'slate' as const });

describe('tag selection', () => {
  it('says which tags all, some or none of the devices carry', () => {
    const states = initialTagStates([{ tags: [tag(1), tag(2)] }, { tags: [tag(1)] }, {}]);
    expect(states.get(1)).toBe('some');
    const both = initialTagStates([{ tags: [tag(1), tag(2)] }, { tags: [tag(1)] }]);
    expect(both.get(1)).toBe('all');
    expect(both.get(2)).toBe('some');
    expect(both.get(3)).toBeUndefined();
  });

  it('sends only what changed', () => {
    const initial = initialTagStates([{ tags: [tag(1), tag(2)] }, { tags: [tag(1)] }]);
    const chosen = new Map(initial);
    chosen.set(1, 'all'); // unchanged
    chosen.set(2, nextTagState('some')); // some → all: add
    chosen.set(3, 'all'); // new: add
    expect(tagChanges(initial, chosen)).toEqual({ add: [2, 3], remove: [] });
    chosen.set(1, nextTagState('all')); // all → none: remove
    chosen.set(3, 'none'); // was none: nothing
    expect(tagChanges(initial, chosen)).toEqual({ add: [2], remove: [1] });
  });
});
