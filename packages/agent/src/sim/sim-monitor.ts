import type { AgentCheck } from '@outpost/contract/agent-protocol';
import type { CheckConfig } from '@outpost/contract/checks';
import {
  agentCrashEvaluation,
  cpuEvaluation,
  diskEvaluation,
  memoryEvaluation,
  processEvaluation,
  rebootPendingEvaluation,
  serviceEvaluation,
} from '../monitoring/evaluators';
import type { VolumeSpace } from '../monitoring/evaluators';
import type { CheckEvaluation, MetricsSample, Monitor } from '../monitoring/monitor';
import { createRng } from './rng';
import { SIM_FAULT_NAMES, NO_FAULTS } from './sim-faults';
import type { SimFaults } from './sim-faults';
import type { VirtualDevice } from './virtual-device';

// A simulated machine's checks and metrics (docs/product/monitoring.md#checks): plausible values
// that follow its working day (busier while someone is signed in), the same for the same seed,
// device and minute, and the faults the fleet was given (sim-faults.ts). Everything answers at
// once, without a promise, timer or process: ten thousand of them share the fleet's one tick.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** A number 0..1 from a few integers (a small integer hash), so a minute's value needs no state. */
function noise(a: number, b: number, c: number): number {
  let h =
    Math.imul(a ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(b + 0x632be5ab, 0xc2b2ae35) ^ Math.imul(c, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x45d9f3b);
  h = Math.imul(h ^ (h >>> 13), 0x45d9f3b);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** The faults one device has, drawn once from the seed (the same devices every run). */
export type DeviceFaults = {
  [K in (typeof SIM_FAULT_NAMES)[number]]: boolean;
};

export function deviceFaults(faults: SimFaults, seed: number, index: number): DeviceFaults {
  const rng = createRng((seed * 7919 + index * 104_729) ^ 0xfa17);
  const out = {} as DeviceFaults;
  for (const name of SIM_FAULT_NAMES) {
    out[name] = rng.chance(faults[name]);
  }
  return out;
}

/** The process names a simulated machine runs. */
function processesOf(device: VirtualDevice): string[] {
  const isMac = device.facts.osType === 'macos';
  const base = isMac
    ? ['launchd', 'WindowServer', 'Finder', 'Dock', 'mds', 'outpost-agent']
    : [
        'System',
        'smss.exe',
        'csrss.exe',
        'wininit.exe',
        'services.exe',
        'lsass.exe',
        'svchost.exe',
        'MsMpEng.exe',
        'outpost-agent.exe',
      ];
  const signedIn =
    device.sessions.length > 0
      ? isMac
        ? ['Safari', 'Microsoft Outlook']
        : ['explorer.exe', 'OUTLOOK.EXE', 'ms-teams.exe', 'chrome.exe']
      : [];
  return [...base, ...signedIn];
}

/** Ports a simulated machine listens on. */
const LISTENING = { windows: [135, 445, 3389, 5985], macos: [22, 88, 445] } as const;

/** The exit code a simulated script ends with: the last `exit N` it contains (0 without). */
export function simulatedExitCode(script: string): number {
  const all = [...script.matchAll(/\bexit(?:\s+\/b)?\s+(-?\d+)/gi)];
  return all.length === 0 ? 0 : Number(all[all.length - 1]![1]);
}

export type SimMonitorOptions = {
  seed: number;
  faults?: SimFaults;
  /** when this machine's simulation started (the filling disk counts from it) */
  startedAt?: number;
};

/** A simulated machine answers at once: no promise anywhere. */
export type SimMonitor = Omit<Monitor, 'evaluate' | 'metrics'> & {
  faults: DeviceFaults;
  evaluate(check: AgentCheck, now: number): CheckEvaluation;
  metrics(now: number): MetricsSample;
};

export function createSimMonitor(device: VirtualDevice, options: SimMonitorOptions): SimMonitor {
  const faults = deviceFaults(options.faults ?? NO_FAULTS, options.seed, device.index);
  const startedAt = options.startedAt ?? Date.now();
  const key = options.seed ^ Math.imul(device.index, 2_654_435_761);
  const isMac = device.facts.osType === 'macos';
  if (faults.stoppedService) {
    const service = device.services.find(
      (s) => s.serviceName === (isMac ? 'com.apple.mDNSResponder' : 'Spooler'),
    );
    if (service) {
      service.status = 'Stopped';
    }
  }
  // the machine's own level: some are busier than others all day
  const baseLoad = 2 + noise(key, 1, 2) * 6;
  const baseMemory = 30 + noise(key, 3, 4) * 30;

  /** CPU % in one minute: idle, busier with someone signed in, hot with the fault. */
  const cpuAt = (minute: number) => {
    const n = noise(key, minute, 5);
    if (faults.hotCpu) {
      return 92 + n * 7;
    }
    const busy = device.sessions.length > 0 ? 12 + noise(key, minute >> 3, 6) * 30 : 0;
    return Math.min(100, baseLoad + busy + n * 8);
  };
  const cpuAverage = (now: number, minutes: number) => {
    const last = Math.floor(now / MINUTE);
    let sum = 0;
    for (let m = last - minutes + 1; m <= last; m++) {
      sum += cpuAt(m);
    }
    return sum / minutes;
  };
  const memoryAt = (now: number) =>
    Math.min(
      99,
      baseMemory + (device.sessions.length > 0 ? 18 : 0) + noise(key, Math.floor(now / MINUTE), 7) * 5,
    );
  const volumesAt = (now: number): VolumeSpace[] =>
    device.hardware.storageDevices.map((d, i) => {
      let free = d.freeSpace;
      if (faults.fillingDisk && i === 0) {
        // a volume filling up: 1 % of the disk an hour, down to 1 % free
        free = Math.max(d.totalSize * 0.01, free - (d.totalSize * 0.01 * (now - startedAt)) / HOUR);
      }
      return { mount: d.deviceId, totalBytes: d.totalSize, freeBytes: Math.round(free) };
    });

  const evaluate = (check: AgentCheck, config: CheckConfig, now: number): CheckEvaluation => {
    switch (config.type) {
      case 'cpu':
        return cpuEvaluation(cpuAverage(now, config.minutes), config);
      case 'memory':
        return memoryEvaluation(memoryAt(now), config);
      case 'disk':
        return diskEvaluation(volumesAt(now), config);
      case 'service':
        return serviceEvaluation(device.services, config);
      case 'process':
        return processEvaluation(processesOf(device), config);
      case 'port': {
        const isLocal = ['localhost', '127.0.0.1', '::1'].includes(config.host.toLowerCase());
        const ports: readonly number[] = LISTENING[isMac ? 'macos' : 'windows'];
        const target = `${config.host}:${config.port}`;
        return !isLocal || ports.includes(config.port)
          ? { state: 'passing', output: `${target} answered in ${1 + (check.id % 20)} ms` }
          : { state: 'failing', output: `${target} refused the connection (nothing listens there)` };
      }
      case 'script': {
        const code = faults.failingScripts ? 2 : simulatedExitCode(config.script);
        const state = code === 0 ? 'passing' : code === 1 ? 'warning' : 'failing';
        return { state, output: code === 0 ? 'OK' : `The script exited with code ${code}` };
      }
      case 'event':
        return config.event === 'reboot_pending'
          ? rebootPendingEvaluation(faults.rebootPending, faults.rebootPending ? 'Windows Update' : undefined)
          : agentCrashEvaluation(null, now);
    }
  };

  return {
    faults,
    evaluate(check, now) {
      if (options.faults?.failingCheckIds.includes(check.id)) {
        return { state: 'failing', output: `Simulated failure of check ${check.id}` };
      }
      return evaluate(check, check.config, now);
    },
    metrics(now): MetricsSample {
      const minute = Math.floor(now / MINUTE);
      const cpu = cpuAt(minute);
      const round1 = (n: number) => Math.round(n * 10) / 10;
      return {
        sampledAt: new Date(now).toISOString(),
        cpu: round1(cpu),
        cpuMax: round1(Math.min(100, cpu + noise(key, minute, 8) * 20)),
        memory: round1(memoryAt(now)),
        volumes: volumesAt(now).map((v) => ({
          mount: v.mount,
          usedPercent: round1(((v.totalBytes - v.freeBytes) / v.totalBytes) * 100),
          totalBytes: v.totalBytes,
          freeBytes: v.freeBytes,
        })),
      };
    },
  };
}
