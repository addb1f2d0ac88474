import { packageMessages as messages } from '@outpost/contract/messages';
import { STEP_CATALOG } from '@outpost/contract/step-catalog';
import type { StepType } from '@outpost/contract/step-catalog';
import {
  deviceRunsArchitecture,
  deviceRunsTarget,
  stepRunsOn,
  targetOsLabel,
} from '@outpost/contract/targets';
import type { Architecture, TargetOs } from '@outpost/contract/targets';
import type { Executor } from '../../lib/db';
import { conflict } from '../../lib/errors';
import { listSteps } from './packages.queries';

// Packages reach only devices they are built for, and hold only steps their target runs
// (docs/decisions/2026-11-26-package-targets.md, docs/architecture.md "Package targets").

/** A step of this type may be added to (or kept in) a package for `target`; else 409. */
export function assertStepFitsTarget(target: TargetOs, stepType: StepType): void {
  if (!stepRunsOn(stepType, target)) {
    throw conflict(
      messages.stepNotForTarget(STEP_CATALOG[stepType].label, targetOsLabel(target)),
      'STEP_TARGET_MISMATCH',
    );
  }
}

/** A package moves to another target only when every step it has runs there; else 409. */
export async function assertTargetFitsSteps(
  tx: Executor,
  packageId: number,
  target: TargetOs,
): Promise<void> {
  const wrong = (await listSteps(tx, packageId)).filter((s) => !stepRunsOn(s.stepType, target));
  if (wrong.length > 0) {
    throw conflict(
      messages.targetHasWindowsOnlySteps(
        targetOsLabel(target),
        wrong.map((s) => `${s.stepOrder}. ${s.stepName}`),
      ),
      'PACKAGE_TARGET_MISMATCH',
    );
  }
}

export type DeployTarget = {
  osType: string | null;
  architecture: string | null;
  hostname: string | null;
  id: number;
};

/**
 * A job reaches only devices that report the package's OS and run its architecture (a device that
 * reports none, an older agent, is let through); any other is named in a 409.
 */
export function assertDevicesRunTarget(
  pkg: { target_os: TargetOs; architecture: Architecture },
  targets: DeployTarget[],
): void {
  const wrong = targets.filter((t) => !deviceRunsTarget(t.osType, pkg.target_os));
  if (wrong.length > 0) {
    throw conflict(
      messages.deployWrongOs(
        targetOsLabel(pkg.target_os),
        wrong.map((t) => t.hostname ?? `device ${t.id}`),
      ),
      'DEVICE_OS_MISMATCH',
    );
  }
  const otherArch = targets.filter(
    (t) => !deviceRunsArchitecture(t.osType, t.architecture, pkg.architecture),
  );
  if (otherArch.length > 0) {
    throw conflict(
      messages.deployWrongArch(
        pkg.architecture,
        otherArch.map((t) => `${t.hostname ?? `device ${t.id}`} (${t.architecture})`),
      ),
      'DEVICE_ARCH_MISMATCH',
    );
  }
}
