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

  it('leaves out devices that cannot run the package architecture and says why', () => {
    const devices = [
      { id: 1, os_type: 'linux', architecture: 'x64' },
      { id: 2, os_type: 'linux', architecture: 'arm64' },
      { id: 3, os_type: 'linux', architecture: 'arm64' },
      { id: 4, os_type: 'linux', architecture: null },
      { id: 5, os_type: 'linux' },
      { id: 6, os_type: 'windows', architecture: 'arm64' },
    ];
    const r = devicesForPackages(devices, ['linux'], ['x64']);
    // an older agent (null) and a device the dialog has not loaded are kept; the server checks
    expect(r.offered.map((d) => d.id)).toEqual([1, 4, 5]);
    expect(r.leftOutIds).toEqual([6, 2, 3]);
    expect(r.note).toBe(
      '1 device left out: Windows, this package targets Linux; 2 devices left out: arm64, this package is built for x64',
    );
  });

  it('offers x86 and x64 Windows packages to Windows on ARM, and arm64 ones to arm64 only', () => {
    const devices = [
      { id: 1, os_type: 'windows', architecture: 'x86' },
      { id: 2, os_type: 'windows', architecture: 'x64' },
      { id: 3, os_type: 'windows', architecture: 'arm64' },
    ];
    expect(devicesForPackages(devices, ['windows'], ['x86']).note).toBeNull();
    expect(devicesForPackages(devices, ['windows'], ['x64']).offered.map((d) => d.id)).toEqual([2, 3]);
    const arm = devicesForPackages(devices, ['windows', 'windows'], ['arm64', 'arm64']);
    expect(arm.offered.map((d) => d.id)).toEqual([3]);
    expect(arm.note).toBe('2 devices left out: x64, x86, the chosen packages are built for arm64');
  });
});
