import { RunDeploymentResult } from '@outpost/contract/deployments';
import { deploymentMessages as messages } from '@outpost/contract/messages';
import type { Executor } from '../../../lib/db';
import { createGroupCommit } from '../../../lib/group-commit';
import type { CommandResultEvent } from '../../../live/agent-reports';
import { endDeviceDeploymentsOfCommands } from './agent-results.queries';
import type { CommandResultEnd } from './agent-results.queries';
import type { Settler } from './settler';
import type { WindowGate } from './windows';

// Results of run_deployment (and an agent_update job's update_agent) commands end their device rows, each row once (a resent result is
// ignored), written in batches (lib/group-commit.ts); their jobs are settled afterwards.

/** at most this many agent messages (progress, results) per transaction, this many at once */
export const AGENT_BATCH = 500;
export const AGENT_BATCH_LANES = 2;

export type ResultInput = {
  deviceId: number;
  commandId: string;
  status: 'completed' | 'failed';
  result: Record<string, unknown> | null;
  error: string | null;
};

/** How a command's result ends its device row (the agent's deployment status, or the command's). */
export function resultEnd(r: ResultInput, expiryHours: number): CommandResultEnd {
  const parsed = RunDeploymentResult.safeParse(r.result);
  const status = parsed.success
    ? parsed.data.deploymentStatus
    : r.status === 'completed'
      ? 'completed'
      : 'failed';
  const error =
    status === 'completed'
      ? null
      : (r.error ?? (status === 'cancelled' ? messages.cancelledOnDevice : messages.agentCannotDeploy));
  // a command that expired before the device took it reads as the device never coming online
  const isExpiry = r.status === 'failed' && !parsed.success && r.error?.startsWith('The command expired');
  return {
    deviceId: r.deviceId,
    commandId: r.commandId,
    status,
    error,
    errorIfPending: isExpiry ? messages.deviceNeverOnline(expiryHours) : error,
    rebootRequired: parsed.success && parsed.data.rebootRequired,
  };
}

/** A result of a run the agent stopped before a step because the device's window would close. */
function windowClosedOf(r: ResultInput): { deviceId: number; commandId: string; stepOrder: number }[] {
  const parsed = RunDeploymentResult.safeParse(r.result);
  const step = parsed.success ? parsed.data.waitingForWindowAtStep : undefined;
  return step === undefined ? [] : [{ deviceId: r.deviceId, commandId: r.commandId, stepOrder: step }];
}

export type ResultWriter = {
  /** ends the device row of this result (batched with others arriving meanwhile) */
  applyResult(result: ResultInput): Promise<void>;
  /** a recorded command's result, from the command queue: only run_deployment and update_agent concern us */
  commandResult(event: CommandResultEvent): Promise<void>;
};

export function createResultWriter(deps: {
  db: Executor;
  settler: Pick<Settler, 'markUnsettled'>;
  expiryHours: number;
  queries?: { endDeviceDeploymentsOfCommands: typeof endDeviceDeploymentsOfCommands };
  /** a run stopped before a step because its maintenance window closes: held, not ended (windows.ts) */
  windows?: Pick<WindowGate, 'windowClosed'>;
}): ResultWriter {
  const { db, settler, expiryHours } = deps;
  const queries = deps.queries ?? { endDeviceDeploymentsOfCommands };

  const applyResult = createGroupCommit({
    keyOf: (r: ResultInput) => r.deviceId,
    maxBatch: AGENT_BATCH,
    lanes: AGENT_BATCH_LANES,
    apply: async (all) => {
      const closed = deps.windows ? all.flatMap(windowClosedOf) : [];
      const results =
        closed.length === 0 ? all : all.filter((r) => !closed.some((c) => c.commandId === r.commandId));
      for (const dd of closed.length === 0 ? [] : await deps.windows!.windowClosed(db, closed)) {
        settler.markUnsettled(dd.jobId, dd);
      }
      const ends = results.map((r) => resultEnd(r, expiryHours));
      for (const dd of await queries.endDeviceDeploymentsOfCommands(db, ends)) {
        settler.markUnsettled(dd.jobId, dd);
      }
      return all.map(() => undefined);
    },
  });

  return {
    applyResult,
    async commandResult(e) {
      // an agent_update job's row ends with its update_agent answer: completed once the new
      // version connected, failed with the reason (docs/product/rollouts.md#agent-updates-in-waves)
      if (e.kind !== 'run_deployment' && e.kind !== 'update_agent' && e.kind !== 'run_script') {
        return;
      }
      await applyResult({
        deviceId: e.device.id,
        commandId: e.commandId,
        status: e.status,
        result: e.result,
        error: e.error,
      });
    },
  };
}
