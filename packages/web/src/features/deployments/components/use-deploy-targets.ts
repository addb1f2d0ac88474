import { useMemo, useState } from 'react';
import type { DeviceStatus } from '@outpost/contract/devices';
import { isDeviceActionable } from '@outpost/contract/devices';
import type { DeployDeviceChoice, DeployPackageChoice } from '../../../lib/deploy-dialog';
import { useLiveMessages } from '../../../lib/socket';
import { useDeployOptions } from '../api/get-deploy-options';
import { devicesForPackages } from '../lib/device-targets';
import type { PackageChangeFacts } from './changed-packages-note';

/** A package the deploy dialog offers: what was passed in, or what the options list says of it. */
export type DeployPackageInfo = DeployPackageChoice & { detail?: string } & PackageChangeFacts;

/**
 * What the deploy dialog offers and what is chosen: the packages and the devices (kept live), the
 * chosen ids, and the devices left out because they do not match the chosen packages' targets.
 */
export function useDeployTargets({
  isOpen,
  initialPackages,
  initialDevices,
}: {
  isOpen: boolean;
  initialPackages: DeployPackageChoice[];
  initialDevices: DeployDeviceChoice[];
}) {
  const options = useDeployOptions(isOpen);
  const initialPackageIds = initialPackages.map((p) => p.id);
  const initialDeviceIds = initialDevices.map((d) => d.id);
  const [packageIds, setPackageIds] = useState<number[]>(initialPackageIds);
  const [deviceIds, setDeviceIds] = useState<number[]>(initialDeviceIds);
  const [liveStatus, setLiveStatus] = useState<ReadonlyMap<number, DeviceStatus>>(new Map());

  const packages = useMemo(() => {
    const map = new Map<number, DeployPackageInfo>();
    for (const p of initialPackages) {
      map.set(p.id, p);
    }
    for (const p of options.data?.packages ?? []) {
      map.set(p.id, {
        id: p.id,
        name: p.name,
        target_os: p.target_os,
        architecture: p.architecture,
        updated_at: p.updated_at,
        updated_by_name: p.updated_by_name,
        is_changed_since_deploy: p.is_changed_since_deploy,
        detail: `v${p.package_version} · ${p.step_count} step${p.step_count === 1 ? '' : 's'}${p.is_template ? ' · Template' : ''}`,
      });
    }
    return map;
  }, [initialPackages, options.data]);

  const devices = useMemo(() => {
    const map = new Map<number, DeployDeviceChoice>();
    for (const d of initialDevices) {
      map.set(d.id, d);
    }
    // docs/product/devices.md#device-actions — only devices online or logged in are offered.
    for (const d of options.data?.devices ?? []) {
      if (isDeviceActionable(d.status)) {
        const { id, hostname, ip_address, status, os_type, architecture } = d;
        map.set(id, { id, hostname, ip_address, status, os_type, architecture });
      }
    }
    for (const [id, status] of liveStatus) {
      const d = map.get(id);
      if (d) {
        map.set(id, { ...d, status });
      }
    }
    return map;
  }, [initialDevices, options.data, liveStatus]);

  // A device going offline while the dialog is open is no longer one to deploy to (rule 4).
  useLiveMessages((event) => {
    if (event.type === 'device_update' && !event.payload.inventory) {
      const { id, status } = event.payload;
      setLiveStatus((m) => new Map(m).set(id, status));
    }
  });

  const selectedPackages = packageIds.map((id) => packages.get(id) ?? { id, name: `Package ${id}` });
  // docs/architecture.md "Package targets": only devices of the chosen packages' OS and
  // architecture are offered; a chosen device of another is dropped (the note says how many and why).
  const byTarget = devicesForPackages(
    [...devices.values()],
    selectedPackages.map((p) => p.target_os),
    selectedPackages.map((p) => p.architecture),
  );
  const leftOutKey = byTarget.leftOutIds.join(',');
  const [prunedFor, setPrunedFor] = useState('');
  if (prunedFor !== leftOutKey) {
    // adjusting state while rendering (react.dev "You might not need an effect")
    const leftOut = new Set(byTarget.leftOutIds);
    setPrunedFor(leftOutKey);
    setDeviceIds((ids) => (ids.some((id) => leftOut.has(id)) ? ids.filter((id) => !leftOut.has(id)) : ids));
  }
  const selectedDevices = deviceIds.map(
    (id) => devices.get(id) ?? { id, hostname: null, status: 'offline' as const },
  );

  return {
    options,
    packages,
    packageIds,
    setPackageIds,
    deviceIds,
    setDeviceIds,
    selectedPackages,
    selectedDevices,
    byTarget,
  };
}
