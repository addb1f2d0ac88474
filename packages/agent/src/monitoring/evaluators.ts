import type { CheckConfig } from '@outpost/contract/checks';
import type { Service } from '@outpost/contract/devices';
import type { CheckEvaluation } from './monitor';

// What each check type finds, as pure functions of what the machine reported, so the real agent
// (system-monitor.ts) and the simulator (sim/sim-monitor.ts) word their outputs the same way.

type ConfigOf<T extends CheckConfig['type']> = Extract<CheckConfig, { type: T }>;

/** A volume's space: its mount point (/, /home) or drive (C:), in bytes. */
export type VolumeSpace = { mount: string; totalBytes: number; freeBytes: number };

const round = (n: number) => Math.round(n);

/** 4.2 GB, 50 GB, 1.5 TB */
export function formatBytes(bytes: number): string {
  const gb = bytes / 1e9;
  if (gb >= 1000) {
    return `${(gb / 1000).toFixed(gb >= 10_000 ? 0 : 1)} TB`;
  }
  if (gb >= 10) {
    return `${round(gb)} GB`;
  }
  return `${gb >= 1 ? gb.toFixed(1) : gb.toFixed(2)} GB`;
}

export function cpuEvaluation(average: number | null, config: ConfigOf<'cpu'>): CheckEvaluation {
  const over = `${config.minutes} minute${config.minutes === 1 ? '' : 's'}`;
  if (average === null) {
    return { state: 'passing', output: 'No CPU sample yet' };
  }
  const output = `CPU ${round(average)} % average over ${over} (limit ${config.percent} %)`;
  return { state: average > config.percent ? 'failing' : 'passing', output };
}

export function memoryEvaluation(usedPercent: number, config: ConfigOf<'memory'>): CheckEvaluation {
  return {
    state: usedPercent > config.percent ? 'failing' : 'passing',
    output: `Memory ${round(usedPercent)} % in use (limit ${config.percent} %)`,
  };
}

/** "C", "c:", "C:\" and "C:/" are the drive C:; a mount point loses a trailing slash. */
export function normaliseVolume(name: string): string {
  const n = name.trim();
  const drive = /^([A-Za-z]):?[\\/]?$/.exec(n);
  if (drive) {
    return `${drive[1]!.toUpperCase()}:`;
  }
  return n.length > 1 ? n.replace(/[\\/]+$/, '') : n;
}

const freePercent = (v: VolumeSpace) => (v.totalBytes > 0 ? (v.freeBytes / v.totalBytes) * 100 : 100);

const isLow = (v: VolumeSpace, config: ConfigOf<'disk'>) =>
  (config.min_free_percent !== null && freePercent(v) < config.min_free_percent) ||
  (config.min_free_gb !== null && v.freeBytes / 1e9 < config.min_free_gb);

const volumeLine = (v: VolumeSpace) =>
  `${v.mount} ${formatBytes(v.freeBytes)} free of ${formatBytes(v.totalBytes)} (${round(freePercent(v))} %)`;

function diskLimit(config: ConfigOf<'disk'>): string {
  return [
    config.min_free_percent !== null ? `${config.min_free_percent} %` : null,
    config.min_free_gb !== null ? `${config.min_free_gb} GB` : null,
  ]
    .filter((l) => l !== null)
    .join(' or ');
}

export function diskEvaluation(volumes: readonly VolumeSpace[], config: ConfigOf<'disk'>): CheckEvaluation {
  const limit = `limit ${diskLimit(config)} free`;
  if (config.volume.trim() === '*') {
    if (volumes.length === 0) {
      return { state: 'failing', output: 'No volume was found' };
    }
    const low = volumes.filter((v) => isLow(v, config));
    if (low.length > 0) {
      return { state: 'failing', output: `${low.map(volumeLine).join('; ')} (${limit})` };
    }
    const fullest = [...volumes].sort((a, b) => freePercent(a) - freePercent(b))[0]!;
    return {
      state: 'passing',
      output: `Every volume has enough free space; the fullest: ${volumeLine(fullest)}`,
    };
  }
  const wanted = normaliseVolume(config.volume);
  const volume = volumes.find((v) => normaliseVolume(v.mount) === wanted);
  if (!volume) {
    return { state: 'failing', output: `Volume ${config.volume} was not found` };
  }
  return {
    state: isLow(volume, config) ? 'failing' : 'passing',
    output: `${volumeLine(volume)} (${limit})`,
  };
}

/** Running as the inventory reports it (Windows service, systemd unit, launchd job). */
export function serviceEvaluation(
  services: readonly Service[],
  config: ConfigOf<'service'>,
): CheckEvaluation {
  const wanted = config.service
    .trim()
    .toLowerCase()
    .replace(/\.service$/, '');
  const service = services.find(
    (s) => s.serviceName.toLowerCase() === wanted || s.displayName.toLowerCase() === wanted,
  );
  if (!service) {
    return { state: 'failing', output: `Service ${config.service} was not found` };
  }
  const label =
    service.displayName && service.displayName !== service.serviceName
      ? `${service.displayName} (${service.serviceName})`
      : service.serviceName;
  return service.status === 'Running'
    ? { state: 'passing', output: `Service ${label} is running` }
    : { state: 'failing', output: `Service ${label} is ${service.status.toLowerCase()}` };
}

/** "Chrome.exe", "chrome" and a name cut to 15 characters (Linux `comm`) are the same process. */
function processMatches(running: string, wanted: string): boolean {
  const r = running.toLowerCase().replace(/\.exe$/, '');
  const w = wanted.toLowerCase().replace(/\.exe$/, '');
  return r === w || (r.length === 15 && w.length > 15 && w.startsWith(r));
}

export function processEvaluation(names: readonly string[], config: ConfigOf<'process'>): CheckEvaluation {
  const count = names.filter((n) => processMatches(n, config.process.trim())).length;
  const isRunning = count > 0;
  const output = isRunning
    ? `Process ${config.process} is running${count > 1 ? ` (${count} instances)` : ''}`
    : `Process ${config.process} is not running`;
  const isExpected = config.expect === 'running' ? isRunning : !isRunning;
  return { state: isExpected ? 'passing' : 'failing', output };
}

/** A script's exit code: 0 passing, 1 warning, anything else failing. */
export function scriptState(exitCode: number | null): CheckEvaluation['state'] {
  return exitCode === 0 ? 'passing' : exitCode === 1 ? 'warning' : 'failing';
}

/** How long ago, in words: "12 minutes ago". */
function ago(ms: number): string {
  const minutes = Math.max(0, Math.round(ms / 60_000));
  return minutes < 1 ? 'less than a minute ago' : `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
}

/** How long an agent_crash event check stays failing after the restart. */
export const CRASH_ALERT_MS = 60 * 60_000;

export function agentCrashEvaluation(crashedRestartAt: number | null, now: number): CheckEvaluation {
  if (crashedRestartAt !== null && now - crashedRestartAt < CRASH_ALERT_MS) {
    return {
      state: 'failing',
      output: `The agent restarted after a crash ${ago(now - crashedRestartAt)}`,
    };
  }
  return { state: 'passing', output: 'The agent has not crashed in the last hour' };
}

export function rebootPendingEvaluation(isPending: boolean, why?: string): CheckEvaluation {
  return isPending
    ? { state: 'failing', output: `A reboot is pending${why ? ` (${why})` : ''}` }
    : { state: 'passing', output: 'No reboot is pending' };
}
