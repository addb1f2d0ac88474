import type { DeploymentStep } from '@outpost/contract/agent-protocol';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { TargetOs } from '@outpost/contract/targets';
import type { Executor } from '../../lib/db';
import type { DeviceDeploymentRow } from './deployments.queries';
import { insertStepLog } from './deployments.queries';

// The demo's deployment history (deployments.demo.ts, rollout.demo.ts): its devices and packages,
// and the step logs an agent would have reported for a finished device row
// (docs/product/deployments.md#fields): one attempt per step, the failing step last.

export type DemoDevice = {
  id: number;
  deviceGuid: string;
  hostname: string | null;
  ipAddress: string | null;
  siteId: number | null;
  osType: string | null;
};

export type DemoPackage = {
  id: number;
  name: string;
  targetOs: TargetOs;
  createdByName: string | null;
  steps: DeploymentStep[];
  /** the demo devices of the package's OS (docs/architecture.md "Package targets") */
  devices: DemoDevice[];
};

export function stepOutput(
  step: DeploymentStep,
  ok: boolean,
): { stdout: string; stderr: string; exitCode: number } {
  switch (step.stepType) {
    case 'MSI':
      return ok
        ? {
            stdout: 'msiexec /i package.msi /qn /norestart\nInstallation completed successfully.\n',
            stderr: '',
            exitCode: 0,
          }
        : {
            stdout: 'msiexec /i package.msi /qn /norestart\n',
            stderr: 'Fatal error during installation.\n',
            exitCode: 1603,
          };
    case 'REGISTRY':
      return ok
        ? { stdout: 'The operation completed successfully.\n', stderr: '', exitCode: 0 }
        : { stdout: '', stderr: 'ERROR: Access is denied.\n', exitCode: 1 };
    default:
      return ok
        ? { stdout: `${step.stepName}\nDone.\n`, stderr: '', exitCode: 0 }
        : {
            stdout: `${step.stepName}\n`,
            stderr: 'The system cannot find the file specified.\n',
            exitCode: 1,
          };
  }
}

/** The device row's error, in the agent's words: "Step 1 (name) failed: Exit code 1603". */
export function failureOf(step: DeploymentStep | undefined): string {
  if (!step) {
    return messages.agentCannotDeploy;
  }
  return `Step ${step.stepOrder} (${step.stepName}) failed: Exit code ${stepOutput(step, false).exitCode}`;
}

/**
 * The step logs of finished rows, each from its start (or `from`): a completed row ran every
 * step; a failed one failed its first step, and the steps after it did not run, so have no log.
 */
export async function writeStepLogs(
  tx: Executor,
  rows: readonly Pick<DeviceDeploymentRow, 'id' | 'status' | 'startedAt'>[],
  steps: readonly DeploymentStep[],
  from: number,
): Promise<void> {
  for (const [i, row] of rows.entries()) {
    if (row.status !== 'completed' && row.status !== 'failed') {
      continue;
    }
    const isFailed = row.status === 'failed';
    let at = row.startedAt?.getTime() ?? from;
    for (const [s, step] of steps.entries()) {
      const ok = !(isFailed && s === 0);
      const out = stepOutput(step, ok);
      const duration = 4000 + ((i * 7 + s * 13) % 20) * 1000;
      await insertStepLog(tx, {
        deviceDeploymentId: row.id,
        stepOrder: step.stepOrder,
        stepName: step.stepName,
        attempt: 1,
        status: ok ? 'completed' : 'failed',
        exitCode: out.exitCode,
        startedAt: new Date(at),
        completedAt: new Date(at + duration),
        durationMs: duration,
        stdoutLog: out.stdout,
        stderrLog: out.stderr,
        errorMessage: ok ? null : `Exit code ${out.exitCode}`,
      });
      at += duration;
      if (!ok) {
        break;
      }
    }
  }
}
