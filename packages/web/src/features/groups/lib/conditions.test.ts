import { describe, expect, it } from 'vitest';
import { FIELD_OPTIONS, completeFilter, describeCondition, filterProblem, newCondition } from './conditions';

const names = { site: (id: number) => `Site ${id}`, tag: (id: number) => `Tag ${id}` };

describe('group conditions', () => {
  it('offers a new condition of every field that needs only its values to be complete', () => {
    for (const { value } of FIELD_OPTIONS) {
      const c = newCondition(value);
      expect(c.field).toBe(value);
    }
    expect(completeFilter({ match: 'all', conditions: [newCondition('os_type')] })).not.toBeNull();
    expect(completeFilter({ match: 'all', conditions: [newCondition('software')] })).toBeNull();
  });

  it('says what is missing in the contract words', () => {
    expect(
      filterProblem({
        match: 'all',
        conditions: [
          {
            field: 'software',
            op: 'installed',
            name_match: 'contains',
            name: 'Chrome',
            version_op: 'lt',
            version: 'x',
          },
        ],
      }),
    ).toBe('Version must be numbers separated by dots, e.g. 1.10.2');
    expect(filterProblem({ match: 'any', conditions: [] })).toBe(
      'A dynamic group needs at least one condition',
    );
  });

  it('describes conditions in words', () => {
    expect(
      describeCondition(
        {
          field: 'software',
          op: 'installed',
          name_match: 'contains',
          name: '7-Zip',
          version_op: 'lt',
          version: '19.0',
        },
        names,
      ),
    ).toBe('Software containing “7-Zip” is installed, version < 19.0');
    expect(describeCondition({ field: 'site', op: 'in', site_ids: [1, 2] }, names)).toBe(
      'Site is one of Site 1, Site 2',
    );
    expect(describeCondition({ field: 'last_seen', op: 'older_than', amount: 30, unit: 'days' }, names)).toBe(
      'Last seen more than 30 days ago',
    );
    expect(describeCondition({ field: 'tag', op: 'has_not', tag_id: 4 }, names)).toBe(
      'Does not have tag Tag 4',
    );
  });
});
