import crypto from 'node:crypto';
import { AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import type {
  ActivityEvent,
  CommandMessage,
  CommandResultMessage,
  UserSession,
} from '@outpost/contract/agent-protocol';
import type { InventoryKind } from '@outpost/contract/devices';
import type { RunDeploymentResult } from '@outpost/contract/deployments';
import type { Executor } from './actions/executor';
import { AgentConnection } from './connection';
import type { Logger } from './connection';
import { createMemoryJournal } from './deployment/journal';
import type { RunJournal } from './deployment/journal';
import { ProgressStream } from './deployment/progress';
import type { ProgressOptions } from './deployment/progress';
import { deploymentError } from './deployment/runner';
import type { DeploymentCommand, DeploymentRunner } from './deployment/runner';
import { InventoryLedger } from './inventory/digest';
import { InventorySender } from './inventory/sender';
import type { Outbox } from './outbox';
import type { ApplyOutcome, SettledUpdate } from './update/updater';
import { releaseMessages } from '@outpost/contract/agent-releases';
import type { UpdateAgentCommand } from '@outpost/contract/agent-protocol';

// The agent's behaviour, shared by the real agent and every virtual agent of the simulator: only
// the DeviceBackend (where facts, inventory and sessions come from) and the Executor differ.

import type { DeviceBackend } from './device-backend';
export type { DeviceBackend, InventoryParts } from './device-backend';

export type AgentOptions = {
  server: string;
  deviceGuid: string;
  agentSecret: string;
  outbox: Outbox;
  backend: DeviceBackend;
  executor: Executor;
  /** runs run_deployment commands: the step library on a real device (deployment/steps-runner.ts), the simulator's in the fleet */
  deployments: DeploymentRunner;
  /** the deployments this device started, kept across restarts (a memory one when absent) */
  journal?: RunJournal;
  /** coalescing of step output (tests shorten the interval) */
  progress?: Partial<ProgressOptions>;
  log?: Logger;
  sessionPollMs?: number;
  backoff?: { baseMs: number; capMs: number };
  random?: () => number;
  /** an opened socket without a welcome after this long is dropped and retried (default 30 s) */
  welcomeTimeoutMs?: number;
  /** self-update of the packaged agent (update/updater.ts); without it update_agent fails */
  selfUpdate?: {
    pendingCommandId(): string | null;
    settle(): Promise<SettledUpdate | null>;
    apply(commandId: string, command: UpdateAgentCommand): Promise<ApplyOutcome>;
    /** stop and exit for the service manager to start the new executable */
    restart(): void;
  };
};

export type Agent = {
  connection: AgentConnection;
  start(): void;
  stop(): Promise<void>;
  /** report login/logout events (the simulator calls this; the real agent polls sessions) */
  reportActivity(events: ActivityEvent[]): void;
  reportFault(active: boolean, message?: string): void;
};

const newId = () => crypto.randomUUID();

/** command_result.error of a deployment offered again after the agent restarted while it ran. */
export const INTERRUPTED_MESSAGE =
  'The agent restarted while this deployment was running, so it was stopped; it is not run again';

/** How long stop() waits for running deployments to stop their processes. */
const STOP_WAIT_MS = 5000;

export function createAgent(options: AgentOptions): Agent {
  const { backend, executor } = options;
  const handled = new Set<string>();
  const { deployments } = options;
  const journal = options.journal ?? createMemoryJournal();
  /** run_deployment commands running now, by command id */
  const running = new Map<
    string,
    { controller: AbortController; stream: ProgressStream; done: Promise<void> }
  >();
  let isStopping = false;
  /** deployments run one at a time (two installers at once fail, e.g. MSI's 1618); the last one */
  let lastRun: Promise<unknown> = Promise.resolve();
  let known = new Map<string, UserSession>();
  // what the server holds of this device's inventory, so a reconnect resends only what changed
  const ledger = new InventoryLedger();
  let pollTimer: NodeJS.Timeout | null = null;
  const { selfUpdate } = options;
  // An update this process completes (or rolled back) is answered after the welcome, not re-run.
  const pendingUpdate = selfUpdate?.pendingCommandId();
  if (pendingUpdate) {
    handled.add(pendingUpdate);
  }

  const sendInventory = (kind: InventoryKind | 'all', opts?: { skipHeld?: boolean }) =>
    inventorySender.send(kind, opts);
  const connection = new AgentConnection({
    server: options.server,
    deviceGuid: options.deviceGuid,
    agentSecret: options.agentSecret,
    outbox: options.outbox,
    log: options.log,
    backoff: options.backoff,
    random: options.random,
    welcomeTimeoutMs: options.welcomeTimeoutMs,
    hello: async () => {
      const h = await backend.hello();
      known = new Map(h.sessions.map((s) => [s.sessionId, s]));
      const inventoryDigests = ledger.digests();
      return {
        type: 'hello',
        protocolVersion: AGENT_PROTOCOL_VERSION,
        ...h,
        ...(inventoryDigests && { inventoryDigests }),
      };
    },
    onAck: (messageId) => ledger.acknowledged(messageId),
    onRefused: (messageId) => ledger.refused(messageId),
    onConnected: (welcome) => {
      ledger.welcomed(welcome.inventoryCurrent);
      void selfUpdate
        ?.settle()
        .then((s) => s && result(s.commandId, s.status, s.result, s.error))
        .catch((err: unknown) => options.log?.error('update settle failed', { err: String(err) }));
      void sendInventory('all', { skipHeld: true }).catch((err: unknown) =>
        options.log?.error('inventory failed', { err: String(err) }),
      );
    },
    onCommand: (m) => {
      void handleCommand(m);
    },
  });

  const inventorySender = new InventorySender(backend, ledger, (message) => connection.sendReliable(message));

  function result(
    commandId: string,
    status: CommandResultMessage['status'],
    res: Record<string, unknown> | null,
    error: string | null,
  ) {
    connection.sendReliable({
      type: 'command_result',
      messageId: newId(),
      commandId,
      status,
      result: res,
      error,
      finishedAt: new Date().toISOString(),
    });
  }

  async function handleCommand(m: CommandMessage) {
    // A re-offered command whose result is still on its way is not run twice.
    if (handled.has(m.commandId)) {
      return;
    }
    handled.add(m.commandId);
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
        case 'update_agent': {
          if (!selfUpdate) {
            throw new Error(releaseMessages.needsPackagedAgent);
          }
          const outcome = await selfUpdate.apply(m.commandId, c);
          if (outcome.restart) {
            // deployments already running finish first (a restart would interrupt them); the new
            // version answers the command once the server has welcomed it
            await lastRun;
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
            const state = journal.get(c.targetCommandId);
            const reason =
              state === 'finished'
                ? 'The deployment has already finished'
                : state === 'running'
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

  function deploymentResult(commandId: string, outcome: RunDeploymentResult, error: string | null) {
    result(commandId, outcome.deploymentStatus === 'completed' ? 'completed' : 'failed', outcome, error);
    journal.set(commandId, 'finished');
  }

  /**
   * Runs a deployment after the ones before it: its reports become step_progress messages
   * (numbered, output coalesced), its end a command_result. `cancel` aborts it; stopping the
   * agent abandons it (the journal answers it when the server offers it again after the restart).
   */
  async function runDeploymentCommand(commandId: string, command: DeploymentCommand) {
    const before = journal.get(commandId);
    if (before === 'finished') {
      return; // its result is in the outbox, on its way
    }
    if (before === 'running') {
      deploymentResult(commandId, { deploymentStatus: 'failed', rebootRequired: false }, INTERRUPTED_MESSAGE);
      return;
    }
    const controller = new AbortController();
    const stream = new ProgressStream(
      commandId,
      (message) => connection.sendReliable(message),
      options.progress,
    );
    let finish: () => void = () => undefined;
    const done = new Promise<void>((resolve) => (finish = resolve));
    running.set(commandId, { controller, stream, done });
    // A deployment waiting for its turn can be cancelled too: it then goes at once, with the
    // signal aborted, and every step is reported cancelled without running.
    const cancelled = new Promise((resolve) => controller.signal.addEventListener('abort', resolve));
    const turn = Promise.race([lastRun, cancelled]).then(() => {
      if (!controller.signal.aborted) {
        journal.set(commandId, 'running');
      }
      return deployments(command, {
        report: (progress) => stream.report(progress),
        signal: controller.signal,
      });
    });
    lastRun = Promise.all([lastRun, turn.catch(() => undefined)]);
    try {
      const outcome = await turn;
      if (isStopping) {
        return;
      }
      stream.close();
      deploymentResult(
        commandId,
        { deploymentStatus: outcome.status, rebootRequired: outcome.rebootRequired },
        deploymentError(outcome),
      );
    } catch (err) {
      if (isStopping) {
        return;
      }
      stream.close();
      options.log?.error('deployment failed', { commandId, err: String(err) });
      deploymentResult(
        commandId,
        { deploymentStatus: 'failed', rebootRequired: false },
        err instanceof Error ? err.message : String(err),
      );
    } finally {
      running.delete(commandId);
      finish();
    }
  }

  async function pollSessions() {
    if (!backend.sessions || connection.state !== 'connected') {
      return;
    }
    const now = await backend.sessions();
    const current = new Map(now.map((s) => [s.sessionId, s]));
    const at = new Date().toISOString();
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
    known = current;
    agent.reportActivity(events);
  }

  const agent: Agent = {
    connection,
    start() {
      connection.start();
      if (backend.sessions) {
        pollTimer = setInterval(() => {
          pollSessions().catch((err: unknown) =>
            options.log?.warn('session poll failed', { err: String(err) }),
          );
        }, options.sessionPollMs ?? 15_000);
        pollTimer.unref();
      }
    },
    async stop() {
      if (pollTimer) {
        clearInterval(pollTimer);
      }
      // A deployment does not survive its agent (as on a reboot): its processes are stopped and
      // nothing more is reported; the journal answers it when the server offers it again.
      isStopping = true;
      const runs = [...running.values()];
      for (const r of runs) {
        r.stream.abandon();
        r.controller.abort();
      }
      await Promise.race([
        Promise.all(runs.map((r) => r.done)),
        new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref()),
      ]);
      await connection.stop();
    },
    reportActivity(events) {
      if (events.length > 0) {
        connection.sendReliable({ type: 'activity', messageId: newId(), events });
      }
    },
    reportFault(active, message) {
      connection.send({ type: 'fault', active, ...(message && { message }) });
    },
  };
  return agent;
}
