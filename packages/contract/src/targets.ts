import { z } from 'zod';
import { osTypeLabel } from './devices';
import type { StepType } from './step-catalog';

// Which devices a package is for (docs/decisions/2026-11-26-package-targets.md). A package names
// one target OS; a job reaches only devices that report that OS, and a package holds only steps
// its target can run. Windows is the default; Linux is offered beside it; macOS is listed for the
// future and cannot be chosen yet.

export const TARGET_OSES = ['windows', 'linux', 'macos'] as const;
export const TargetOs = z.enum(TARGET_OSES);
export type TargetOs = z.infer<typeof TargetOs>;

/** The targets a package may be created with or moved to today (macOS is future). */
export const AVAILABLE_TARGET_OSES = ['windows', 'linux'] as const satisfies readonly TargetOs[];
export type AvailableTargetOs = (typeof AVAILABLE_TARGET_OSES)[number];

/** The CPU architectures a package is built for and a device reports (packages.ts re-exports them). */
export const ARCHITECTURES = ['x64', 'x86', 'arm64'] as const;
export const Architecture = z.enum(ARCHITECTURES);
export type Architecture = z.infer<typeof Architecture>;

/** The agent's reported architecture (enrol, hello, inventory facts); older agents send none. */
export const architectureField = z.string().max(16).nullable().optional();

/**
 * The targets each step type runs on (docs/architecture.md "Package targets"). MSI and REGISTRY
 * need Windows (msiexec, the registry). CMD runs cmd.exe on Windows and /bin/sh elsewhere;
 * POWERSHELL runs powershell.exe on Windows and pwsh (PowerShell 7) elsewhere; EXE runs the
 * program itself (a native executable of the target); CUSTOM_ZIP extracts and runs its main
 * executable; FOLDER creates or deletes a folder (its permissions field is icacls on Windows).
 */
export const STEP_TARGETS: Record<StepType, readonly TargetOs[]> = {
  EXE: TARGET_OSES,
  MSI: ['windows'],
  CUSTOM_ZIP: TARGET_OSES,
  REGISTRY: ['windows'],
  FOLDER: TARGET_OSES,
  CMD: TARGET_OSES,
  POWERSHELL: TARGET_OSES,
  // docs/product/rollouts.md#reboot-message-and-wait-steps: each OS has its own way to do them
  REBOOT: TARGET_OSES,
  MESSAGE: TARGET_OSES,
  WAIT: TARGET_OSES,
};

export const stepRunsOn = (type: StepType, target: TargetOs): boolean => STEP_TARGETS[type].includes(target);

/** The display name of a target ('linux' → 'Linux'). */
export const targetOsLabel = (target: TargetOs): string => osTypeLabel(target);

/** The target a device's reported os_type is, or null when it reports none Outpost knows. */
export function deviceTargetOs(osType: string | null | undefined): TargetOs | null {
  const os = osType?.trim().toLowerCase();
  return TARGET_OSES.find((t) => t === os) ?? null;
}

/** Does a device that reports this os_type run packages built for `target`? */
export const deviceRunsTarget = (osType: string | null | undefined, target: TargetOs): boolean =>
  deviceTargetOs(osType) === target;

/** The architecture a device reported, or null when it reported none Outpost knows. */
export function deviceArchitecture(reported: string | null | undefined): Architecture | null {
  const arch = reported?.trim().toLowerCase();
  return ARCHITECTURES.find((a) => a === arch) ?? null;
}

/**
 * The architectures a device of this OS and architecture runs (docs/architecture.md "Package
 * targets"): Windows runs x86 builds on x64 (WoW64), and Windows on ARM emulates x86 and x64;
 * Linux runs its own architecture and x86 builds on x64. Anything else runs only its own.
 */
const RUNS: Partial<Record<TargetOs, Record<Architecture, readonly Architecture[]>>> = {
  windows: { x86: ['x86'], x64: ['x64', 'x86'], arm64: ['arm64', 'x64', 'x86'] },
  linux: { x86: ['x86'], x64: ['x64', 'x86'], arm64: ['arm64'] },
};

/**
 * Does a device run a package built for `packageArch`? A device that reports no architecture Outpost
 * knows (an agent older than the report) matches: it cannot be told apart, and its OS still decides.
 */
export function deviceRunsArchitecture(
  osType: string | null | undefined,
  reported: string | null | undefined,
  packageArch: Architecture,
): boolean {
  const arch = deviceArchitecture(reported);
  if (arch === null) {
    return true;
  }
  const os = deviceTargetOs(osType);
  const runs = (os && RUNS[os]?.[arch]) ?? [arch];
  return runs.includes(packageArch);
}
