import { describe, expect, it } from 'vitest';
import { DEVICE_STATUS_FILTERS, osTypeLabel } from './devices';

describe('device labels', () => {
  it('names OS types, keeps unknown ones as given and says Unknown for none', () => {
    expect(osTypeLabel('windows')).toBe('Windows');
    expect(osTypeLabel('MacOS')).toBe('macOS');
    expect(osTypeLabel('freebsd')).toBe('freebsd');
    expect(osTypeLabel(null)).toBe('Unknown');
  });

  it('offers the spec’s status filters: All, Online, Offline, Error', () => {
    expect(DEVICE_STATUS_FILTERS.map((f) => f.label)).toEqual(['All statuses', 'Online', 'Offline', 'Error']);
  });
});
