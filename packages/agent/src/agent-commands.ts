import crypto from 'node:crypto';
import type {
  ActivityEvent,
  CommandMessage,
  CommandResultMessage,
  NotReportedPart,
  RunScriptCommand,
  UpdateAgentCommand,
  UserSession,
} from '@outpost/contract/agent-protocol';
import { releaseMessages } from '@outpost/contract/agent-releases';
import type { RunDeploymentResult } from '@outpost/contract/deployments';
import type { InventoryKind } from '@outpost/contract/devices';
import type { Executor } from './actions/executor';
import type { StepExecutor } from './actions/step-executor';
import type { AgentConnection, Logger } from './connection';
import type { RunJournal } from './deployment/journal';
import { ProgressStream } from './deployment/progress';
import { placeOf, restartForDeployment, resumeAfterRestart } from './deployment/reboot-resume';
import type { ProgressOptions } from './deployment/progress';
import { deploymentError } from './deployment/runner';
import type { DeploymentCommand, DeploymentRunner } from './deployment/runner';
import type { StepProgress } from './steps/deployment-loop';
import type { ApplyOutcome, SettledUpdate } from './update/updater';

// The commands an agent runs (agent.ts keeps the state; these take it as a context).

export const newId = () => crypto.randomUUID();

/** command_result.error of a deployment offered again after the agent restarted while it ran. */
export const INTERRUPTED_MESSAGE =
  'The agent restarted while this deployment was running, so it was stopped; it is not run again';

/** Self-update of the packaged agent (update/updater.ts), as the agent uses it. */
export type SelfUpdatePort = {
  pendingCommandId(): string | null;
  settle(): Promise<SettledUpdate | null>;
  apply(commandId: string, command: UpdateAgentCommand): Promise<ApplyOutcome>;
  /** stop and exit for the service manager to start the new executable */
  restart(): void;
};

export type RunningDeployment = { controller: AbortController; stream: ProgressStream; done: Promise<void> };

/** The agent's mutable run state: the last deployment queued, and whether it is stopping. */
export type RunState = {
  /** deployments run one at a time (two installers at once fail, e.g. MSI's 1618); the last one */
  lastRun: Promise<unknown>;
  isStopping: boolean;
};

export type SendResult = (
  commandId: string,
  status: CommandResultMessage['status'],
  res: Record<string, unknown> | null,
  error: string | null,
) => void;

export type CommandContext = {
  executor: Executor;
  selfUpdate: SelfUpdatePort | undefined;
  journal: RunJournal;
  running: Map<string, RunningDeployment>;
  state: RunState;
  sendInventory: (kind: InventoryKind | 'all', opts?: { skipHeld?: boolean }) => Promise<NotReportedPart[]>;
  result: SendResult;
  runDeploymentCommand: (commandId: string, command: DeploymentCommand) => Promise<void>;
  /** run_script (scripts/script-runs.ts) */
  runScriptCommand: (commandId: string, command: RunScriptCommand) => Promise<void>;
};

/** Runs one command (not run before) and answers it with a command_result. */
export async function runCommand(ctx: CommandContext, m: CommandMessage): Promise<void> {
  const { executor, selfUpdate, journal, running, state, sendInventory, result, runDeploymentCommand } = ctx;
  const c = m.command;
  try {
    switch (c.kind) {
      case 'refresh_inventory': {
        const notReported = await sendInventory(c.inventoryKind);
        result(
          m.commandId,
          'completed',
          { inventoryKind: c.inventoryKind, ...(notReported.length > 0 && { notReported }) },
          null,
        );
        return;
      }
      case 'service_control': {
        const { status } = await executor.serviceControl(c.serviceName, c.action);
        result(m.commandId, 'completed', { serviceName: c.serviceName, action: c.action, status }, null);
        await sendInventory('services');
        return;
      }
      case 'device_action':
        // The result goes first: after a restart or shutdown there is no one left to send it.
        result(m.commandId, 'completed', { action: c.action }, null);
        await executor.deviceAction(c.action);
        return;
      case 'run_deployment':
        await runDeploymentCommand(m.commandId, c);
        return;
      case 'run_script':
        await ctx.runScriptCommand(m.commandId, c);
        return;
      case 'update_agent': {
        if (!selfUpdate) {
          throw new Error(releaseMessages.needsPackagedAgent);
        }
        const outcome = await selfUpdate.apply(m.commandId, c);
        if (outcome.restart) {
          // deployments already running finish first (a restart would interrupt them); the new
          // version answers the command once the server has welcomed it
          await state.lastRun;
          selfUpdate.restart();
        } else {
          result(m.commandId, 'completed', outcome.result, null);
        }
        return;
      }
      case 'cancel': {
        const run = running.get(c.targetCommandId);
        if (run) {
          run.controller.abort();
          result(m.commandId, 'completed', { cancelled: true }, null);
        } else {
          const before = journal.get(c.targetCommandId);
          const reason =
            before === 'finished'
              ? 'The deployment has already finished'
              : before === 'running'
                ? 'The deployment was stopped when the agent restarted'
                : 'Nothing to cancel';
          result(m.commandId, 'completed', { cancelled: false, reason }, null);
        }
        return;
      }
    }
  } catch (err) {
    result(m.commandId, 'failed', null, err instanceof Error ? err.message : String(err));
  }
}

export type DeploymentContext = {
  journal: RunJournal;
  running: Map<string, RunningDeployment>;
  state: RunState;
  deployments: DeploymentRunner;
  connection: AgentConnection;
  progress: Partial<ProgressOptions> | undefined;
  log: Logger | undefined;
  result: SendResult;
  /** REBOOT steps and installers' restarts (deployment/reboot-resume.ts) */
  stepExecutor?: StepExecutor;
};

/** A deployment's command_result, and the journal told it finished. */
function deploymentResult(
  ctx: DeploymentContext,
  commandId: string,
  outcome: RunDeploymentResult,
  error: string | null,
) {
  ctx.result(commandId, outcome.deploymentStatus === 'completed' ? 'completed' : 'failed', outcome, error);
  ctx.journal.set(commandId, 'finished');
}

/**
 * Runs a deployment after the ones before it: its reports become step_progress messages
 * (numbered, output coalesced), its end a command_result. `cancel` aborts it; stopping the
 * agent abandons it (the journal answers it when the server offers it again after the restart).
 */
export async function runDeployment(
  ctx: DeploymentContext,
  commandId: string,
  command: DeploymentCommand,
): Promise<void> {
  const { journal, running, state, deployments, connection } = ctx;
  const before = journal.get(commandId);
  if (before === 'finished') {
    return; // its result is in the outbox, on its way
  }
  // a deployment that restarted the device on purpose resumes once (deployment/reboot-resume.ts)
  const place = before === 'rebooting' ? placeOf(journal, commandId) : undefined;
  if (before === 'running' || (before === 'rebooting' && !place)) {
    deploymentResult(
      ctx,
      commandId,
      { deploymentStatus: 'failed', rebootRequired: false },
      INTERRUPTED_MESSAGE,
    );
    return;
  }
  const controller = new AbortController();
  const stream = new ProgressStream(commandId, (message) => connection.sendReliable(message), ctx.progress);
  if (place) {
    stream.resumeAfter(place.seq);
  }
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  running.set(commandId, { controller, stream, done });
  // A deployment waiting for its turn can be cancelled too: it then goes at once, with the
  // signal aborted, and every step is reported cancelled without running.
  const cancelled = new Promise((resolve) => controller.signal.addEventListener('abort', resolve));
  const turn = Promise.race([state.lastRun, cancelled]).then(() => {
    if (!controller.signal.aborted) {
      journal.set(commandId, 'running'); // a resumed deployment's place is taken here, before any report
    }
    const io = { report: (progress: StepProgress) => stream.report(progress), signal: controller.signal };
    return place ? resumeAfterRestart(place, deployments, io) : deployments(command, io);
  });
  state.lastRun = Promise.all([state.lastRun, turn.catch(() => undefined)]);
  try {
    const outcome = await turn;
    if (state.isStopping) {
      return;
    }
    if (outcome.restart) {
      const restart = { ...outcome, restart: outcome.restart };
      const send = (message: Parameters<typeof connection.sendReliable>[0]) =>
        connection.sendReliable(message);
      const failure = await restartForDeployment(
        { journal, stepExecutor: ctx.stepExecutor, send, newId },
        commandId,
        place?.command ?? command,
        stream,
        restart,
      );
      if (failure !== null) {
        deploymentResult(ctx, commandId, { deploymentStatus: 'failed', rebootRequired: true }, failure);
      }
      return;
    }
    stream.close();
    deploymentResult(
      ctx,
      commandId,
      {
        deploymentStatus: outcome.status,
        rebootRequired: outcome.rebootRequired,
        ...(outcome.waitingForWindowAtStep === undefined
          ? {}
          : { waitingForWindowAtStep: outcome.waitingForWindowAtStep }),
      },
      deploymentError(outcome),
    );
  } catch (err) {
    if (state.isStopping) {
      return;
    }
    stream.close();
    ctx.log?.error('deployment failed', { commandId, err: String(err) });
    deploymentResult(
      ctx,
      commandId,
      { deploymentStatus: 'failed', rebootRequired: false },
      err instanceof Error ? err.message : String(err),
    );
  } finally {
    running.delete(commandId);
    finish();
  }
}

/** Login and logout events between the sessions known and those current, stamped `at`. */
export function sessionEvents(
  known: Map<string, UserSession>,
  current: Map<string, UserSession>,
  at: string,
): ActivityEvent[] {
  const events: ActivityEvent[] = [];
  for (const [id, s] of current) {
    if (!known.has(id)) {
      events.push({
        eventType: 'login',
        userName: s.userName,
        sessionId: id,
        ipAddress: s.ipAddress ?? null,
        timestamp: at,
      });
    }
  }
  for (const [id, s] of known) {
    if (!current.has(id)) {
      events.push({
        eventType: 'logout',
        userName: s.userName,
        sessionId: id,
        ipAddress: s.ipAddress ?? null,
        timestamp: at,
      });
    }
  }
  return events;
}
