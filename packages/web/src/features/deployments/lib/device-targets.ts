import { osTypeLabel } from '@outpost/contract/devices';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import { deviceRunsTarget, targetOsLabel } from '@outpost/contract/targets';
import type { TargetOs } from '@outpost/contract/targets';

// The deploy dialog offers a package only to devices of its target OS, and says how many it left
// out and why (docs/architecture.md "Package targets"; the server refuses the rest with 409).

export type TargetedDevice = { id: number; os_type?: string | null };

/**
 * The devices the chosen packages may go to: each must run every chosen package's target (the
 * same devices get one job per package). A device whose OS the dialog does not know (not loaded)
 * is kept; the server checks it. No chosen package with a known target: every device is offered.
 */
export function devicesForPackages<T extends TargetedDevice>(
  devices: readonly T[],
  packageTargets: readonly (TargetOs | undefined)[],
): { offered: T[]; leftOutIds: number[]; note: string | null } {
  const targets = [...new Set(packageTargets.filter((t): t is TargetOs => t !== undefined))];
  if (targets.length === 0) {
    return { offered: [...devices], leftOutIds: [], note: null };
  }
  const offered: T[] = [];
  const leftOut: T[] = [];
  for (const d of devices) {
    const fits = d.os_type === undefined || targets.every((t) => deviceRunsTarget(d.os_type, t));
    (fits ? offered : leftOut).push(d);
  }
  if (leftOut.length === 0) {
    return { offered, leftOutIds: [], note: null };
  }
  const oses = [...new Set(leftOut.map((d) => osTypeLabel(d.os_type)))].sort((a, b) => a.localeCompare(b));
  return {
    offered,
    leftOutIds: leftOut.map((d) => d.id),
    note: messages.dialogDevicesLeftOut(
      leftOut.length,
      oses,
      targets.map(targetOsLabel),
      packageTargets.length,
    ),
  };
}
