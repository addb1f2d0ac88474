import { describe, expect, it } from 'vitest';
import { devicesForPackages } from './device-targets';

const fleet = [
  { id: 1, os_type: 'windows' },
  { id: 2, os_type: 'macos' },
  { id: 3, os_type: 'macos' },
  { id: 4, os_type: 'linux' },
  { id: 5, os_type: null },
  { id: 6 },
];

describe('the deploy dialog and package targets', () => {
  it('offers a Windows package only to Windows devices and says what it left out', () => {
    const r = devicesForPackages(fleet, ['windows']);
    expect(r.offered.map((d) => d.id)).toEqual([1, 6]);
    expect(r.leftOutIds).toEqual([2, 3, 4, 5]);
    expect(r.note).toBe('4 devices left out: Linux, macOS, Unknown, this package targets Windows');
  });

  it('offers a Linux package only to Linux devices', () => {
    const r = devicesForPackages(
      [
        { id: 1, os_type: 'windows' },
        { id: 4, os_type: 'Linux' },
      ],
      ['linux'],
    );
    expect(r.offered.map((d) => d.id)).toEqual([4]);
    expect(r.note).toBe('1 device left out: Windows, this package targets Linux');
  });

  it('offers every device before a package is chosen, and none to packages of two targets', () => {
    expect(devicesForPackages(fleet, []).note).toBeNull();
    expect(devicesForPackages(fleet, [undefined]).offered).toHaveLength(fleet.length);
    const mixed = devicesForPackages(fleet.slice(0, 5), ['windows', 'linux']);
    expect(mixed.offered).toEqual([]);
    expect(mixed.note).toBe(
      '5 devices left out: Linux, macOS, Unknown, Windows, the chosen packages target Windows and Linux (deploy them separately)',
    );
  });
});
