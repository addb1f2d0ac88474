import fs from 'node:fs';
import path from 'node:path';
import { collectServices } from '../inventory/services';
import type { Probes } from '../inventory/probe-worker';
import { systemConditionProbes } from '../steps/condition-probes';
import { CpuSampler, memoryUsedPercent } from './cpu-sampler';
import { rebootPendingSource } from './system-monitor';
import type { SystemSources } from './system-monitor';
import { createVolumeSource, linuxMounts } from './volumes';

/**
 * The real machine's sources for the monitor (main.ts). Kept light (docs/agent.md "Footprint"):
 * CPU and memory from node:os, volumes from /proc/mounts and statfs on Linux, services through the
 * inventory's own commands (systemctl, Get-CimInstance, launchctl; no systeminformation), the
 * process list from ps or tasklist. Only the volume list of Windows and macOS needs the probes.
 */
export function systemSources(options: {
  stateDir: string;
  probes: () => Promise<Probes>;
  crashedRestartAt: number | null;
  platform?: NodeJS.Platform;
}): SystemSources {
  const platform = options.platform ?? process.platform;
  const workDir = path.join(options.stateDir, 'checks');
  fs.mkdirSync(workDir, { recursive: true, mode: 0o700 });
  const processes = systemConditionProbes(platform);
  return {
    platform,
    cpu: new CpuSampler(Date.now()),
    memoryUsedPercent: () => memoryUsedPercent(),
    volumes: createVolumeSource(
      platform === 'linux' ? linuxMounts : async () => (await options.probes()).collectVolumeMounts(),
    ),
    services: () => collectServices(platform),
    processNames: () => processes.processNames(),
    rebootPending: rebootPendingSource(platform),
    crashedRestartAt: options.crashedRestartAt,
    workDir,
  };
}
