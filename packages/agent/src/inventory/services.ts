import { messages } from '@outpost/contract/messages';
import type { Service } from '@outpost/contract/devices';
import { tryExec } from './exec';

// Services behind platform adapters (Windows services, systemd units, launchd jobs).
// Each parser takes the command's recorded output, so the Windows and macOS adapters are tested
// on any machine.

const WINDOWS_STATE: Record<string, string> = {
  Running: 'Running',
  Stopped: 'Stopped',
  Paused: 'Paused',
  'Start Pending': 'Start Pending',
  'Stop Pending': 'Stop Pending',
  'Continue Pending': 'Continue Pending',
  'Pause Pending': 'Pause Pending',
};
const WINDOWS_START: Record<string, string> = {
  Auto: 'Automatic',
  Manual: 'Manual',
  Disabled: 'Disabled',
  Boot: 'Boot',
  System: 'System',
};

export const WINDOWS_SERVICES_COMMAND = [
  'powershell.exe',
  [
    '-NoProfile',
    '-Command',
    'Get-CimInstance Win32_Service | Select-Object Name,DisplayName,State,StartMode | ConvertTo-Json -Compress',
  ],
] as const;

/** `Get-CimInstance Win32_Service | Select Name,DisplayName,State,StartMode | ConvertTo-Json` */
/** PowerShell emits enum members as numbers or names depending on the version. */
function windowsLabel(labels: Record<string, string>, value: unknown): string {
  if (typeof value !== 'string' && typeof value !== 'number') {
    return 'Unknown';
  }
  return labels[String(value)] ?? String(value);
}

export function parseWindowsServices(json: string): Service[] {
  const data = JSON.parse(json) as unknown;
  const rows = (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];
  return rows
    .filter((r) => typeof r.Name === 'string' && r.Name)
    .map((r) => ({
      serviceName: String(r.Name),
      displayName: typeof r.DisplayName === 'string' ? r.DisplayName : String(r.Name),
      status: windowsLabel(WINDOWS_STATE, r.State),
      startType: windowsLabel(WINDOWS_START, r.StartMode),
    }));
}

/**
 * `systemctl list-units --type=service --all --no-legend --plain` (UNIT LOAD ACTIVE SUB DESCRIPTION)
 * joined with `systemctl list-unit-files --type=service --no-legend` (UNIT STATE [PRESET]).
 */
export function parseSystemdServices(units: string, unitFiles: string): Service[] {
  const startTypes = new Map<string, string>();
  for (const line of unitFiles.split('\n')) {
    const [unit, state] = line.trim().split(/\s+/);
    if (unit && state) {
      startTypes.set(
        unit,
        state === 'enabled'
          ? 'Automatic'
          : state === 'disabled' || state === 'masked'
            ? 'Disabled'
            : 'Manual',
      );
    }
  }
  const out: Service[] = [];
  for (const line of units.split('\n')) {
    // \u25cf: systemctl's "●"; escaped so the bundle holds no character past Latin-1 (docs/agent.md "Footprint")
    const m = /^\s*[\u25cf*]?\s*(\S+\.service)\s+(\S+)\s+(\S+)\s+(\S+)\s*(.*)$/.exec(line);
    if (!m) {
      continue;
    }
    const [, unit, load, active, sub, description] = m as unknown as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    if (load === 'not-found') {
      continue;
    }
    const status =
      active === 'active'
        ? sub === 'exited'
          ? 'Stopped'
          : 'Running'
        : active === 'activating'
          ? 'Start Pending'
          : active === 'deactivating'
            ? 'Stop Pending'
            : 'Stopped';
    out.push({
      serviceName: unit.replace(/\.service$/, ''),
      displayName: description.trim() || unit,
      status,
      startType: startTypes.get(unit) ?? 'Manual',
    });
  }
  return out;
}

/** `launchctl list`: PID, last exit status and label per line; a PID means it is running. */
export function parseLaunchdServices(output: string): Service[] {
  const out: Service[] = [];
  for (const line of output.split('\n').slice(1)) {
    const [pid, , label] = line.trim().split(/\t|\s+/);
    if (!label || !pid) {
      continue;
    }
    out.push({
      serviceName: label,
      displayName: label,
      status: pid === '-' ? 'Stopped' : 'Running',
      startType: label.startsWith('com.apple.') ? 'Automatic' : 'Manual',
    });
  }
  return out;
}

export async function collectServices(platform: NodeJS.Platform = process.platform): Promise<Service[]> {
  if (platform === 'win32') {
    const [file, args] = WINDOWS_SERVICES_COMMAND;
    const out = await tryExec(file, [...args]);
    // every Windows machine has services: no answer means no working PowerShell, not an empty list
    if (!out?.trim()) {
      throw new Error(messages.powershellUnavailable);
    }
    return parseWindowsServices(out);
  }
  if (platform === 'darwin') {
    const out = await tryExec('launchctl', ['list']);
    return out ? parseLaunchdServices(out) : [];
  }
  const [units, files] = await Promise.all([
    tryExec('systemctl', ['list-units', '--type=service', '--all', '--no-legend', '--plain', '--no-pager']),
    tryExec('systemctl', ['list-unit-files', '--type=service', '--no-legend', '--no-pager']),
  ]);
  return units ? parseSystemdServices(units, files ?? '') : [];
}
