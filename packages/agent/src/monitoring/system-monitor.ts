import { stat } from 'node:fs/promises';
import type { AgentCheck } from '@outpost/contract/agent-protocol';
import type { CheckConfig } from '@outpost/contract/checks';
import type { Service } from '@outpost/contract/devices';
import { SAMPLE_VOLUMES_MAX } from '@outpost/contract/metrics';
import { systemConditionProbes } from '../steps/condition-probes';
import type { CpuSampler } from './cpu-sampler';
import { memoryUsedPercent } from './cpu-sampler';
import {
  agentCrashEvaluation,
  cpuEvaluation,
  diskEvaluation,
  memoryEvaluation,
  processEvaluation,
  rebootPendingEvaluation,
  serviceEvaluation,
} from './evaluators';
import type { VolumeSpace } from './evaluators';
import type { CheckEvaluation, MetricsSample, Monitor } from './monitor';
import { METRICS_INTERVAL_MS } from './monitor';
import { portEvaluation } from './port-check';
import { scriptEvaluation } from './script-check';

// This machine's checks and metrics (docs/agent.md "Checks and metrics"). Every source is a
// function handed in, so tests drive each evaluator against this machine or a recorded answer.
// Nothing here starts, stops or changes anything on the machine.

export type SystemSources = {
  platform: NodeJS.Platform;
  cpu: CpuSampler;
  memoryUsedPercent: () => number;
  volumes: () => Promise<VolumeSpace[]>;
  /** the services inventory (inventory/services.ts, through the probes) */
  services: () => Promise<Service[]>;
  processNames: () => Promise<string[]>;
  rebootPending: () => Promise<{ isPending: boolean; why?: string }>;
  /** when the agent started again after a crash (crash-marker.ts); null after a clean stop */
  crashedRestartAt: number | null;
  /** where script checks write their file (the agent's work folder) */
  workDir?: string;
};

/** Answers shared by the checks of one round: a list asked for once serves every check for a while. */
function shared<T>(load: () => Promise<T>, ttlMs: number): () => Promise<T> {
  let held: { at: number; value: Promise<T> } | null = null;
  return () => {
    const now = Date.now();
    if (!held || now - held.at > ttlMs) {
      const value = load();
      held = { at: now, value };
      value.catch(() => {
        held = null;
      });
    }
    return held.value;
  };
}

export function createSystemMonitor(sources: SystemSources): Monitor {
  const services = shared(sources.services, 20_000);
  const processNames = shared(sources.processNames, 5_000);
  const volumes = shared(sources.volumes, 5_000);
  const evaluate = async (config: CheckConfig, now: number): Promise<CheckEvaluation> => {
    switch (config.type) {
      case 'cpu':
        return cpuEvaluation(sources.cpu.over(config.minutes * 60_000, now)?.average ?? null, config);
      case 'memory':
        return memoryEvaluation(sources.memoryUsedPercent(), config);
      case 'disk':
        return diskEvaluation(await volumes(), config);
      case 'service':
        return serviceEvaluation(await services(), config);
      case 'process':
        return processEvaluation(await processNames(), config);
      case 'port':
        return portEvaluation(config);
      case 'script':
        return scriptEvaluation(config, { workDir: sources.workDir });
      case 'event': {
        if (config.event === 'agent_crash') {
          return agentCrashEvaluation(sources.crashedRestartAt, now);
        }
        const pending = await sources.rebootPending();
        return rebootPendingEvaluation(pending.isPending, pending.why);
      }
    }
  };
  return {
    evaluate: (check: AgentCheck, now: number) => evaluate(check.config, now),
    tick: (now) => sources.cpu.tick(now),
    async metrics(now) {
      const cpu = sources.cpu.over(METRICS_INTERVAL_MS, now);
      if (!cpu) {
        return null;
      }
      const round1 = (n: number) => Math.round(n * 10) / 10;
      const sample: MetricsSample = {
        sampledAt: new Date(now).toISOString(),
        cpu: round1(cpu.average),
        cpuMax: round1(cpu.peak),
        memory: round1(sources.memoryUsedPercent()),
        volumes: (await volumes().catch(() => [])).slice(0, SAMPLE_VOLUMES_MAX).map((v) => ({
          mount: v.mount,
          usedPercent: v.totalBytes > 0 ? round1(((v.totalBytes - v.freeBytes) / v.totalBytes) * 100) : 0,
          totalBytes: v.totalBytes,
          freeBytes: v.freeBytes,
        })),
      };
      return sample;
    },
  };
}

/** Where Linux says a reboot is pending (update-notifier, needrestart). */
export const LINUX_REBOOT_MARKER = '/var/run/reboot-required';

/** Registry keys whose presence means Windows waits for a restart. */
export const WINDOWS_REBOOT_KEYS = [
  'SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\Component Based Servicing\\RebootPending',
  'SOFTWARE\\Microsoft\\Windows\\CurrentVersion\\WindowsUpdate\\Auto Update\\RebootRequired',
] as const;

/** Is a reboot pending? Linux: the marker file; Windows: the usual keys; macOS: never asked. */
export function rebootPendingSource(
  platform: NodeJS.Platform,
  options: {
    marker?: string;
    readRegistry?: (keyPath: string, valueName: string) => Promise<{ data: string } | null>;
  } = {},
): () => Promise<{ isPending: boolean; why?: string }> {
  const probes = systemConditionProbes(platform);
  const readRegistry =
    options.readRegistry ??
    ((keyPath, valueName) => probes.readRegistry('HKEY_LOCAL_MACHINE', keyPath, valueName));
  return async () => {
    if (platform === 'win32') {
      for (const key of WINDOWS_REBOOT_KEYS) {
        if (await readRegistry(key, '')) {
          return { isPending: true, why: key.split('\\').slice(-1)[0] };
        }
      }
      const renames = await readRegistry(
        'SYSTEM\\CurrentControlSet\\Control\\Session Manager',
        'PendingFileRenameOperations',
      );
      return renames?.data ? { isPending: true, why: 'PendingFileRenameOperations' } : { isPending: false };
    }
    if (platform === 'darwin') {
      return { isPending: false };
    }
    const marker = options.marker ?? LINUX_REBOOT_MARKER;
    try {
      await stat(marker);
      return { isPending: true, why: marker };
    } catch {
      return { isPending: false };
    }
  };
}

export { memoryUsedPercent };
