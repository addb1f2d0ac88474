import { describe, expect, it } from 'vitest';
import {
  AUDIT_ACTION_SELECT,
  AUDIT_RESOURCE_TYPE_SELECT,
  actionTone,
  auditPages,
  dateRangeError,
  emptyAuditFilters,
  emptyHint,
  hasGoToPage,
  parseGoToPage,
  prettyJson,
  shortAge,
} from './audit-format';

describe('audit badge colours (docs/product/activity.md#audit-log)', () => {
  it('follows the words of the action: create, delete, update, login or auth, else grey', () => {
    expect(actionTone('Create User')).toBe('green');
    expect(actionTone('Create Deployment')).toBe('green');
    expect(actionTone('Delete Site')).toBe('red');
    expect(actionTone('Update Device')).toBe('blue');
    expect(actionTone('Login')).toBe('purple');
    expect(actionTone('OAuth token refresh')).toBe('purple');
    expect(actionTone('Switch Organization')).toBe('gray');
    expect(actionTone('Device Restart')).toBe('gray');
    expect(actionTone('')).toBe('gray');
    expect(actionTone(null)).toBe('gray');
  });

  it('is case-insensitive and takes create before delete before update', () => {
    expect(actionTone('bulk DELETE')).toBe('red');
    expect(actionTone('Create or update')).toBe('green');
    expect(actionTone('Delete after update')).toBe('red');
  });
});

describe('audit filter options (docs/product/activity.md#audit-log)', () => {
  it('offers All Actions then Create, Update and Delete of User, Site and Device', () => {
    expect(AUDIT_ACTION_SELECT.map((o) => o.label)).toEqual([
      'All Actions',
      'Create User',
      'Update User',
      'Delete User',
      'Create Site',
      'Update Site',
      'Delete Site',
      'Create Device',
      'Update Device',
      'Delete Device',
    ]);
    expect(AUDIT_ACTION_SELECT[0]!.value).toBe('');
  });

  it('offers All Types then the resource types', () => {
    expect(AUDIT_RESOURCE_TYPE_SELECT.map((o) => o.label)).toEqual([
      'All Types',
      'user',
      'site',
      'device',
      'deployment',
      'package',
    ]);
  });
});

describe('audit empty state hint (docs/product/activity.md#audit-log)', () => {
  it('asks to adjust the filters when search, action, type or user is set', () => {
    expect(emptyHint({ ...emptyAuditFilters, search: 'alex' })).toBe('Try adjusting your search filters.');
    expect(emptyHint({ ...emptyAuditFilters, action: 'Create User' })).toBe(
      'Try adjusting your search filters.',
    );
    expect(emptyHint({ ...emptyAuditFilters, resourceType: 'site' })).toBe(
      'Try adjusting your search filters.',
    );
    expect(emptyHint({ ...emptyAuditFilters, userId: '3' })).toBe('Try adjusting your search filters.');
  });

  it('says actions will appear otherwise, dates and a blank search included', () => {
    expect(emptyHint(emptyAuditFilters)).toBe('User actions will appear here once performed.');
    expect(emptyHint({ ...emptyAuditFilters, search: '   ' })).toBe(
      'User actions will appear here once performed.',
    );
    expect(emptyHint({ ...emptyAuditFilters, startDate: '2026-01-01', endDate: '2026-02-01' })).toBe(
      'User actions will appear here once performed.',
    );
  });
});

describe('audit pager (docs/product/activity.md#audit-log)', () => {
  it('is empty with one page or fewer', () => {
    expect(auditPages(1, 0)).toEqual([]);
    expect(auditPages(1, 1)).toEqual([]);
  });

  it('shows every page when they all fit', () => {
    expect(auditPages(1, 5)).toEqual([1, 2, 3, 4, 5]);
    expect(auditPages(4, 7)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it('shows first, last, two either side of the current and ellipses', () => {
    expect(auditPages(1, 20)).toEqual([1, 2, 3, 'gap', 20]);
    expect(auditPages(10, 20)).toEqual([1, 'gap', 8, 9, 10, 11, 12, 'gap', 20]);
    expect(auditPages(20, 20)).toEqual([1, 'gap', 18, 19, 20]);
    expect(auditPages(4, 20)).toEqual([1, 2, 3, 4, 5, 6, 'gap', 20]);
    // a gap of one page shows that page
    expect(auditPages(5, 20)).toEqual([1, 2, 3, 4, 5, 6, 7, 'gap', 20]);
    expect(auditPages(6, 20)).toEqual([1, 'gap', 4, 5, 6, 7, 8, 'gap', 20]);
  });

  it('offers the go-to box above 5 pages only', () => {
    expect(hasGoToPage(5)).toBe(false);
    expect(hasGoToPage(6)).toBe(true);
  });
});

describe('audit go-to-page box (docs/product/activity.md#audit-log)', () => {
  it('accepts whole numbers from 1 to the total pages', () => {
    expect(parseGoToPage('1', 8)).toBe(1);
    expect(parseGoToPage('8', 8)).toBe(8);
    expect(parseGoToPage(' 3 ', 8)).toBe(3);
  });

  it('ignores anything else', () => {
    for (const text of ['', '0', '9', '-1', '2.5', '1e1', 'abc', '3a', '+2']) {
      expect(parseGoToPage(text, 8), text).toBeNull();
    }
  });
});

describe('audit timestamps and values', () => {
  const now = Date.parse('2026-06-01T12:00:00Z');
  it('gives the age in s, m, h and d', () => {
    expect(shortAge(new Date(now - 5_000), now)).toBe('5s ago');
    expect(shortAge(new Date(now - 3 * 60_000), now)).toBe('3m ago');
    expect(shortAge(new Date(now - 5 * 3_600_000), now)).toBe('5h ago');
    expect(shortAge(new Date(now - 3 * 86_400_000), now)).toBe('3d ago');
    expect(shortAge(new Date(now + 5_000), now)).toBe('0s ago');
  });

  it('pretty-prints JSON values and leaves other text alone', () => {
    expect(prettyJson('{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(prettyJson('not json')).toBe('not json');
  });
});

describe('audit date range', () => {
  it('refuses a start date after the end date', () => {
    expect(dateRangeError({ startDate: '2026-02-01', endDate: '2026-01-31' })).toBe(
      'The start date must not be after the end date',
    );
    expect(dateRangeError({ startDate: '2026-01-31', endDate: '2026-01-31' })).toBeNull();
    expect(dateRangeError({ startDate: '2026-02-01', endDate: '' })).toBeNull();
  });
});
