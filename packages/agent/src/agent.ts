import { AGENT_CAPABILITIES, AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import type {
  ActivityEvent,
  CommandMessage,
  CommandResultMessage,
  HelloMessage,
  UserSession,
} from '@outpost/contract/agent-protocol';
import type { InventoryKind } from '@outpost/contract/devices';
import type { Executor } from './actions/executor';
import type { StepExecutor } from './actions/step-executor';
import { resumeSavedDeployments } from './deployment/reboot-resume';
import { AgentConnection } from './connection';
import type { Logger } from './connection';
import { createMemoryJournal } from './deployment/journal';
import type { RunJournal } from './deployment/journal';
import type { ProgressOptions } from './deployment/progress';
import type { DeploymentCommand, DeploymentRunner } from './deployment/runner';
import { InventoryLedger } from './inventory/digest';
import { InventorySender } from './inventory/sender';
import type { Outbox } from './outbox';
import { createAgentMonitoring } from './monitoring/agent-monitoring';
import type { AgentMonitoring } from './monitoring/agent-monitoring';
import type { Monitor, Ticker } from './monitoring/monitor';
import { RemoteAccess } from './remote/remote-access';
import type { RemoteHandlers } from './remote/remote-access';
import { newId, runCommand, runDeployment, sessionEvents } from './agent-commands';
import type {
  CommandContext,
  DeploymentContext,
  RunningDeployment,
  RunState,
  SelfUpdatePort,
} from './agent-commands';

export { INTERRUPTED_MESSAGE } from './agent-commands';

// The agent's behaviour, shared by the real agent and every virtual agent of the simulator: only
// the DeviceBackend (where facts, inventory and sessions come from) and the Executor differ.

import type { DeviceBackend } from './device-backend';
import type { ScriptExecutor } from './scripts/run-script';
import { scriptCommandRunner } from './scripts/script-runs';
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
  /** runs run_script commands (scripts/run-script.ts; the simulator's in the fleet); without it they fail */
  scripts?: ScriptExecutor;
  /** coalescing of step output (tests shorten the interval) */
  progress?: Partial<ProgressOptions>;
  log?: Logger;
  sessionPollMs?: number;
  backoff?: { baseMs: number; capMs: number };
  random?: () => number;
  /** an opened socket without a welcome after this long is dropped and retried (default 30 s) */
  welcomeTimeoutMs?: number;
  /** the local address the agent socket binds (the simulator's; ConnectionOptions.localAddress) */
  localAddress?: string;
  /** self-update of the packaged agent (update/updater.ts); without it update_agent fails */
  selfUpdate?: SelfUpdatePort;
  /** restarts a deployment asks for (REBOOT steps); the runner's handlers use the same one */
  stepExecutor?: StepExecutor;
  /** evaluates checks and samples metrics; with it the hello lists the `checks` capability */
  monitor?: Monitor;
  /**
   * remote access (remote/remote-access.ts): the terminal and file handlers; with it the hello
   * lists the `remote` capability unless `allowed` is false (the device owner turned it off)
   */
  remote?: { handlers: RemoteHandlers; allowed?: boolean };
  /** the tick checks and metrics run on (the simulator's fleet shares one) */
  ticker?: Ticker;
  /** the previous run did not stop cleanly (crash-marker.ts): said in the hellos until one is welcomed */
  restartedAfterCrash?: { at: string; reason: string | null } | null;
};

export type Agent = {
  connection: AgentConnection;
  start(): void;
  stop(): Promise<void>;
  /** report login/logout events (the simulator calls this; the real agent polls sessions) */
  reportActivity(events: ActivityEvent[]): void;
  /** reason memory_limit: the agent is about to restart past its memory limit (memory-ceiling.ts) */
  reportFault(active: boolean, message?: string, reason?: 'memory_limit'): void;
  /** checks and metrics (null without a monitor) */
  monitoring: AgentMonitoring | null;
  /** remote access: the policy the server sent (null without remote handlers) */
  remote: RemoteAccess | null;
};

/** How long stop() waits for running deployments to stop their processes. */
const STOP_WAIT_MS = 5000;

/** The hello: the backend's facts, and the digests of the inventory the server holds. */
function helloMessage(
  h: Awaited<ReturnType<DeviceBackend['hello']>>,
  ledger: InventoryLedger,
  restartedAfterCrash: HelloMessage['restartedAfterCrash'] | null,
): HelloMessage {
  const inventoryDigests = ledger.digests();
  return {
    type: 'hello',
    protocolVersion: AGENT_PROTOCOL_VERSION,
    ...h,
    ...(inventoryDigests && { inventoryDigests }),
    ...(restartedAfterCrash && { restartedAfterCrash }),
  };
}

/** Abandons and aborts every running deployment and waits, STOP_WAIT_MS at most, for them to stop. */
async function stopRunning(running: Map<string, RunningDeployment>): Promise<void> {
  const runs = [...running.values()];
  for (const r of runs) {
    r.stream.abandon();
    r.controller.abort();
  }
  await Promise.race([
    Promise.all(runs.map((r) => r.done)),
    new Promise((resolve) => setTimeout(resolve, STOP_WAIT_MS).unref()),
  ]);
}

/** Sends a command's result through the outbox. */
function resultSender(connection: AgentConnection) {
  return (
    commandId: string,
    status: CommandResultMessage['status'],
    res: Record<string, unknown> | null,
    error: string | null,
  ) =>
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

/** Checks and metrics, when the agent has a monitor (docs/agent.md "Checks and metrics"). */
function monitoringOf(connection: AgentConnection, options: AgentOptions): AgentMonitoring | null {
  if (!options.monitor) {
    return null;
  }
  const { monitor, ticker, random, log } = options;
  return createAgentMonitoring(connection, { monitor, ticker, random, log, newId });
}

/** Remote access (null without handlers); a terminal nobody can see any more ends with the socket. */
function remoteOf(connection: AgentConnection, options: AgentOptions): RemoteAccess | null {
  if (!options.remote) {
    return null;
  }
  const { handlers, allowed } = options.remote;
  connection.onState((state) => state !== 'connected' && handlers.connectionLost?.());
  return new RemoteAccess((m) => connection.send(m), handlers, allowed !== false);
}

/** What the hello lists beyond ack_lists: checks with a monitor, remote access unless turned off. */
function capabilitiesOf(options: AgentOptions): string[] {
  return [
    ...(options.monitor ? [AGENT_CAPABILITIES.checks] : []),
    ...(options.remote && options.remote.allowed !== false ? [AGENT_CAPABILITIES.remote] : []),
  ];
}

export function createAgent(options: AgentOptions): Agent {
  const { backend, executor, deployments } = options;
  const handled = new Set<string>();
  const journal = options.journal ?? createMemoryJournal();
  /** run_deployment commands running now, by command id */
  const running = new Map<string, RunningDeployment>();
  const state: RunState = { lastRun: Promise.resolve(), isStopping: false };
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

  // said in every hello until one is welcomed (the server opens its alert once)
  let restartedAfterCrash = options.restartedAfterCrash ?? null;

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
    localAddress: options.localAddress,
    hello: async () => {
      const h = await backend.hello();
      known = new Map(h.sessions.map((s) => [s.sessionId, s]));
      return helloMessage(h, ledger, restartedAfterCrash);
    },
    capabilities: capabilitiesOf(options),
    onChecks: (m) => monitoring?.onChecks(m),
    onRemote: (m) => remote?.onMessage(m),
    onAck: (messageId) => ledger.acknowledged(messageId),
    onRefused: (messageId) => ledger.refused(messageId),
    onConnected: (welcome) => {
      restartedAfterCrash = null;
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

  const monitoring = monitoringOf(connection, options);
  const remote = remoteOf(connection, options);

  const inventorySender = new InventorySender(backend, ledger, (message) => connection.sendReliable(message));

  const result = resultSender(connection);

  async function handleCommand(m: CommandMessage) {
    // A re-offered command whose result is still on its way is not run twice.
    if (handled.has(m.commandId)) {
      return;
    }
    handled.add(m.commandId);
    await runCommand(commandContext, m);
  }

  // what the commands and the deployments share with the agent
  const shared = { journal, running, state };
  const deploymentContext: DeploymentContext = {
    ...shared,
    deployments,
    connection,
    progress: options.progress,
    log: options.log,
    result,
    stepExecutor: options.stepExecutor,
  };
  const runDeploymentCommand = (commandId: string, command: DeploymentCommand) =>
    runDeployment(deploymentContext, commandId, command);
  const runScriptCommand = scriptCommandRunner({ ...shared, ...options, connection, result });
  const commandContext: CommandContext = {
    ...shared,
    executor,
    selfUpdate,
    sendInventory,
    result,
    runDeploymentCommand,
    runScriptCommand,
  };

  async function pollSessions() {
    if (!backend.sessions || connection.state !== 'connected') {
      return;
    }
    const now = await backend.sessions();
    const current = new Map(now.map((s) => [s.sessionId, s]));
    const events = sessionEvents(known, current, new Date().toISOString());
    known = current;
    agent.reportActivity(events);
  }

  const agent: Agent = {
    connection,
    monitoring,
    remote,
    start() {
      connection.start();
      monitoring?.start();
      // deployments that restarted the device on purpose go on now, once
      resumeSavedDeployments(journal, handled, runDeploymentCommand);
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
      state.isStopping = true;
      monitoring?.stop();
      await stopRunning(running);
      await connection.stop();
    },
    reportActivity(events) {
      if (events.length > 0) {
        connection.sendReliable({ type: 'activity', messageId: newId(), events });
      }
    },
    reportFault(active, message, reason) {
      connection.send({ type: 'fault', active, ...(message && { message }), ...(reason && { reason }) });
    },
  };
  return agent;
}
