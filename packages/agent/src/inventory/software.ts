import type { SoftwareItem } from '@outpost/contract/devices';
import { messages } from '@outpost/contract/messages';
import { tryExec } from './exec';

// Installed software per platform; parsers take recorded command output (tested on any machine).

export const WINDOWS_SOFTWARE_SCRIPT = [
  "$paths = 'HKLM:\\Software\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*',",
  "'HKLM:\\Software\\WOW6432Node\\Microsoft\\Windows\\CurrentVersion\\Uninstall\\*'",
  '; Get-ItemProperty $paths -ErrorAction SilentlyContinue | Where-Object { $_.DisplayName }',
  '| Select-Object PSChildName,DisplayName,Publisher,DisplayVersion,InstallDate | ConvertTo-Json -Compress',
].join(' ');

/** YYYYMMDD (Windows registry) → YYYY-MM-DD */
function windowsDate(v: unknown): string | null {
  const s = typeof v === 'string' ? v.trim() : '';
  return /^\d{8}$/.test(s) ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}` : null;
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);

export function parseWindowsSoftware(json: string): SoftwareItem[] {
  const data = JSON.parse(json) as unknown;
  const rows = (Array.isArray(data) ? data : [data]) as Record<string, unknown>[];
  return rows
    .filter((r) => str(r.DisplayName))
    .map((r) => ({
      name: str(r.DisplayName)!,
      displayName: str(r.DisplayName),
      publisher: str(r.Publisher),
      version: str(r.DisplayVersion),
      installDate: windowsDate(r.InstallDate),
    }));
}

/** `system_profiler SPApplicationsDataType -json` */
export function parseMacSoftware(json: string): SoftwareItem[] {
  const data = JSON.parse(json) as { SPApplicationsDataType?: Record<string, unknown>[] };
  return (data.SPApplicationsDataType ?? [])
    .filter((a) => str(a._name))
    .map((a) => {
      const signed = Array.isArray(a.signed_by) ? str(a.signed_by[0]) : null;
      const modified = str(a.lastModified);
      return {
        name: str(a._name)!,
        displayName: str(a._name),
        publisher: signed?.replace(/^Developer ID Application: /, '').replace(/ \([A-Z0-9]+\)$/, '') ?? null,
        version: str(a.version),
        installDate: modified ? modified.slice(0, 10) : null,
      };
    });
}

/** `dpkg-query -W -f '${Package}\t${Version}\t${Maintainer}\n'` */
export function parseDpkg(output: string): SoftwareItem[] {
  return output
    .split('\n')
    .map((l) => l.split('\t'))
    .filter((p) => p[0])
    .map(([name, version, maintainer]) => ({
      name: name!,
      displayName: null,
      publisher: str(maintainer?.replace(/\s*<.*>$/, '')),
      version: str(version),
      installDate: null,
    }));
}

export async function collectSoftware(platform: NodeJS.Platform = process.platform): Promise<SoftwareItem[]> {
  if (platform === 'win32') {
    const out = await tryExec('powershell.exe', ['-NoProfile', '-Command', WINDOWS_SOFTWARE_SCRIPT], 60_000);
    // every Windows machine has installed software: no answer means no working PowerShell (a
    // missing one, or a stub that exits 0 without running anything), not an empty list
    if (!out?.trim()) {
      throw new Error(messages.powershellUnavailable);
    }
    return parseWindowsSoftware(out);
  }
  if (platform === 'darwin') {
    const out = await tryExec('system_profiler', ['SPApplicationsDataType', '-json'], 120_000);
    return out ? parseMacSoftware(out) : [];
  }
  const dpkg = await tryExec('dpkg-query', ['-W', '-f', '${Package}\t${Version}\t${Maintainer}\n']);
  if (dpkg) {
    return parseDpkg(dpkg);
  }
  const rpm = await tryExec('rpm', ['-qa', '--qf', '%{NAME}\t%{VERSION}-%{RELEASE}\t%{VENDOR}\n']);
  return rpm ? parseDpkg(rpm) : [];
}
