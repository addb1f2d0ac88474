import { osTypeLabel } from '@outpost/contract/devices';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { deviceRunsArchitecture, deviceRunsTarget, targetOsLabel } from '@outpost/contract/targets';
import type { Architecture, TargetOs } from '@outpost/contract/targets';

// The deploy dialog offers a package only to devices of its target OS that run its architecture,
// and says how many it left out and why (docs/architecture.md "Package targets"; the server
// refuses the rest with 409).

export type TargetedDevice = { id: number; os_type?: string | null; architecture?: string | null };

const sorted = (labels: string[]) => [...new Set(labels)].sort((a, b) => a.localeCompare(b));

/**
 * The devices the chosen packages may go to: each must run every chosen package's target and
 * architecture (the same devices get one job per package). A device whose OS or architecture the
 * dialog does not know (not loaded) is kept, the server checks it; one that reports no
 * architecture (an older agent) matches any. No chosen package with a known target: every device
 * is offered.
 */
export function devicesForPackages<T extends TargetedDevice>(
  devices: readonly T[],
  packageTargets: readonly (TargetOs | undefined)[],
  packageArchs: readonly (Architecture | undefined)[] = [],
): { offered: T[]; leftOutIds: number[]; note: string | null } {
  const targets = [...new Set(packageTargets.filter((t): t is TargetOs => t !== undefined))];
  const archs = [...new Set(packageArchs.filter((a): a is Architecture => a !== undefined))];
  if (targets.length === 0 && archs.length === 0) {
    return { offered: [...devices], leftOutIds: [], note: null };
  }
  const offered: T[] = [];
  const otherOs: T[] = [];
  const otherArch: T[] = [];
  for (const d of devices) {
    if (d.os_type !== undefined && !targets.every((t) => deviceRunsTarget(d.os_type, t))) {
      otherOs.push(d);
    } else if (
      d.architecture !== undefined &&
      !archs.every((a) => deviceRunsArchitecture(d.os_type, d.architecture, a))
    ) {
      otherArch.push(d);
    } else {
      offered.push(d);
    }
  }
  const notes = [
    otherOs.length > 0 &&
      messages.dialogDevicesLeftOut(
        otherOs.length,
        sorted(otherOs.map((d) => osTypeLabel(d.os_type))),
        targets.map(targetOsLabel),
        packageTargets.length,
      ),
    otherArch.length > 0 &&
      messages.dialogDevicesLeftOutArch(
        otherArch.length,
        sorted(otherArch.map((d) => d.architecture ?? '')),
        archs,
        packageArchs.length,
      ),
  ].filter((n): n is string => typeof n === 'string');
  return {
    offered,
    leftOutIds: [...otherOs, ...otherArch].map((d) => d.id),
    note: notes.length > 0 ? notes.join('; ') : null,
  };
}
