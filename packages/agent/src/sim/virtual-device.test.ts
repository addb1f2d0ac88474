import { describe, expect, it } from 'vitest';
import { HardwareInfo, NetworkInfo, Service, SoftwareItem } from '@outpost/contract/devices';
import { createRng } from './rng';
import { createVirtualDevice } from './virtual-device';

const fleet = (seed: number, n: number) => {
  const rng = createRng(seed);
  return Array.from({ length: n }, (_, i) => createVirtualDevice(rng, i, { prefix: 'HQ', subnet: 10 }));
};

describe('simulated devices', () => {
  it('are the same for the same seed and differ for another', () => {
    expect(fleet(7, 20)).toEqual(fleet(7, 20));
    expect(fleet(8, 20).map((d) => d.facts.serialNumber)).not.toEqual(
      fleet(7, 20).map((d) => d.facts.serialNumber),
    );
  });

  it('are varied and match the contract shapes', () => {
    const devices = fleet(2026, 200);
    for (const d of devices) {
      HardwareInfo.parse(d.hardware);
      NetworkInfo.parse(d.network);
      d.software.forEach((s) => SoftwareItem.parse(s));
      d.services.forEach((s) => Service.parse(s));
    }
    const manufacturers = new Set(devices.map((d) => d.facts.manufacturer));
    expect([...manufacturers].sort()).toEqual(['Apple Inc.', 'Dell Inc.', 'HP', 'LENOVO']);
    expect(devices.some((d) => d.facts.osVersion.includes('Windows 10'))).toBe(true);
    expect(devices.some((d) => d.facts.osVersion.includes('Windows 11'))).toBe(true);
    expect(devices.filter((d) => d.facts.osType === 'macos').length).toBeGreaterThan(10);
    // Macs are Apple silicon, Windows machines x64 (docs/architecture.md "Package targets")
    for (const d of devices) {
      expect(d.facts.architecture).toBe(d.facts.osType === 'macos' ? 'arm64' : 'x64');
    }
    const usage = devices.map(
      (d) => 1 - d.hardware.storageDevices[0]!.freeSpace / d.hardware.storageDevices[0]!.totalSize,
    );
    expect(usage.some((u) => u > 0.9)).toBe(true);
    expect(usage.some((u) => u < 0.5)).toBe(true);
    const titles = new Set(devices.flatMap((d) => d.software.map((s) => s.name)));
    expect(titles.size).toBeGreaterThan(40);
    const states = new Set(devices.flatMap((d) => d.services.map((s) => s.status)));
    for (const s of ['Running', 'Stopped', 'Paused']) {
      expect(states).toContain(s);
    }
    expect(new Set(devices.map((d) => d.facts.hostname)).size).toBe(devices.length);
  });
});
