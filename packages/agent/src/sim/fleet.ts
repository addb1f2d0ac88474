import { fleetScripts } from './scripts';
import { createAgent } from '../agent';
import type { Agent } from '../agent';
import type { Logger } from '../connection';
import { createMemoryJournal } from '../deployment/journal';
import { enrollDevice } from '../enroll';
import { enrollWithRetry } from './enroll-retry';
import type { AgentIdentity } from '../enroll';
import { createMemoryOutbox } from '../outbox';
import { RecordingStepExecutor } from '../actions/step-executor';
import { DEFAULT_SIM_DEPLOYMENTS, createSimulatedRunner } from './deployments';
import { simulatedConditionProbes } from './sim-conditions';
import type { SimDeploymentOptions } from './deployments';
import { DEFAULT_POWER, SimulatedExecutor, createPowerCycle } from './power';
import type { PowerOptions } from './power';
import { createRng } from './rng';
import { createIntervalTicker } from '../monitoring/monitor';
import { DEMO_FAULTS, NO_FAULTS } from './sim-faults';
import type { SimFaults } from './sim-faults';
import { createSimMonitor } from './sim-monitor';
import type { SimulatedAgent } from './simulated-agent';
import { simulatedTerminals } from './fake-shell';
import { simulatedFiles } from './fake-files';
import type { RemoteHandlers } from '../remote/remote-access';
import { applyDemoVariety, shapeDemoDevice } from './variety';
import { controlVirtualService, createVirtualDevice, virtualBackend } from './virtual-device';
import type { VirtualDevice } from './virtual-device';
import { plannedSessionAt, simSessionId } from './workday';
import type { WorkdayDevice } from './workday';

// The fleet simulator: N virtual agents in one process over the real HTTP and websocket protocol
// (docs/product/agent-protocol.md). The same --seed gives the same machines (hostnames, serials, inventories);
// a restarted simulator keeps its device records only when given the identities it kept
// (`identities`), as a real agent must prove its guid and secret to re-enrol.

export type FleetOptions = {
  server: string;
  /** enrolment tokens; device i uses tokens[i % tokens.length] (e.g. one token per site) */
  tokens: string[];
  devices: number;
  seed?: number;
  /** hostname prefix per token, e.g. site codes */
  prefixes?: string[];
  /** IANA time zone per token (the site's); working-day patterns follow its local time (UTC without) */
  timezones?: (string | null)[];
  /**
   * Sessions follow working-day patterns in the site's local time (workday.ts: office hours, idle
   * evenings, servers, rarely used machines) instead of random sign-ins every tick.
   */
  workday?: boolean;
  /** how often each device may log a user in or out, or drop its connection */
  tickMs?: number;
  /** per tick: chance of a login/logout change, and of a dropped connection */
  loginChance?: number;
  disconnectChance?: number;
  log?: Logger;
  /** restart and shutdown downtimes */
  power?: Partial<PowerOptions>;
  /** the demo's mix of offline, error and signed-in machines */
  variety?: boolean;
  /**
   * Identities kept from an earlier run, by device index: presenting them keeps the device records
   * (a re-enrolment must prove guid and secret); without them every run enrols new devices.
   */
  identities?: (AgentIdentity | null | undefined)[];
  /** deployments: the chance that a step attempt fails (default 0.05) */
  failureRate?: number;
  /** deployments: how long a step takes, drawn between min and max ms (default 1–4 s) */
  stepDurationMs?: SimDeploymentOptions['stepDurationMs'];
  /** deployments: real ms per simulated ms, so tests run a 2 s step in 100 ms (default 1) */
  timeScale?: number;
  /** reconnect backoff (full jitter); default 0.5 s doubling up to 10 s */
  backoff?: { baseMs: number; capMs: number };
  /**
   * the local address every agent socket binds (e.g. 127.0.0.2): one source address has ~28,000
   * ephemeral ports towards one server, so fleets past that run in several processes, each with its own
   */
  localAddress?: string;
  /**
   * machines with no installed software: a first inventory then writes only its own device's rows
   * (the fleet's software counts are shared rows every new machine's first inventory updates)
   */
  noSoftware?: boolean;
  /** enrolments in flight at once (default 8); each agent connects as soon as it is enrolled */
  enrollConcurrency?: number;
  /** called as each agent is enrolled and started (progress, connection events) */
  onAgent?: (agent: SimulatedAgent) => void;
  /**
   * monitoring faults (sim-faults.ts): the share of devices with each; the demo's mix with
   * `variety`, none without
   */
  faults?: SimFaults;
};

/** A simulated machine as the working-day plan sees it. */
export const workdayDeviceOf = (a: SimulatedAgent): WorkdayDevice => ({
  index: a.device.index,
  users: a.device.users,
  domain: a.device.domain,
  machineId: a.device.facts.machineId,
  timeZone: a.timeZone,
});

export type Fleet = { agents: SimulatedAgent[]; stop(): Promise<void> };

/** The fleet's machines in index order, each with the enrolment token slot it uses. */
function makeDevices(options: FleetOptions, rng: ReturnType<typeof createRng>) {
  return Array.from({ length: options.devices }, (_, i) => {
    const slot = i % options.tokens.length;
    const device = createVirtualDevice(rng, i, {
      prefix: options.prefixes?.[slot] ?? 'ACME',
      subnet: 10 + slot,
    });
    if (options.variety) {
      shapeDemoDevice(device);
    }
    if (options.noSoftware) {
      device.software = [];
    }
    return { device, slot };
  });
}

export async function startFleet(options: FleetOptions): Promise<Fleet> {
  const seed = options.seed ?? 1;
  const rng = createRng(seed);
  const behaviour = createRng(seed ^ 0x5eed);
  // Devices are made in index order (the same --seed gives the same machines), then enrolled by a
  // few workers at once; each agent connects as soon as its enrolment is through, so a large fleet
  // comes online while the rest is still enrolling.
  const made = makeDevices(options, rng);
  const slots: (SimulatedAgent | undefined)[] = new Array<SimulatedAgent | undefined>(options.devices);
  const stopping = new AbortController();
  // every agent's checks and metrics run on this one tick (docs/agent.md "Checks and metrics")
  const ticker = createIntervalTicker(1000);
  const faults = options.faults ?? (options.variety ? DEMO_FAULTS : NO_FAULTS);
  const enrolAndStart = async (i: number) => {
    const { device, slot } = made[i]!;
    const creds = await enrollWithRetry(
      () => enrollDevice(options.server, options.tokens[slot]!, device.facts, options.identities?.[i]),
      { log: options.log, label: device.facts.hostname, signal: stopping.signal },
    );
    const executor = new SimulatedExecutor((name, action) => controlVirtualService(device, name, action));
    // The outbox and the journal of started deployments outlive a reboot, like the real agent's
    // files; a deployment running when the machine restarts is lost, as on a real one.
    const outbox = createMemoryOutbox();
    const journal = createMemoryJournal();
    // messages are recorded; a restart a deployment orders powers the machine off and on, and
    // the agent that boots resumes the deployment from the journal (docs/product/rollouts.md)
    const stepExecutor = new RecordingStepExecutor({
      sessions: () => device.sessions,
      onReboot: () => executor.onPowerOff?.('restart'),
    });
    const deployments = simulatedDeployments(
      options,
      device,
      createRng((seed * 31 + i) ^ 0xde910),
      stepExecutor,
    );
    // the machine's checks and metrics; its faults outlive a reboot, as a real machine's would
    const monitor = createSimMonitor(device, { seed, faults });
    const boot = () =>
      createAgent({
        server: options.server,
        deviceGuid: creds.device_guid,
        agentSecret: creds.agent_secret,
        outbox,
        backend: virtualBackend(device),
        executor,
        deployments,
        scripts: fleetScripts(options, seed, i),
        journal,
        stepExecutor,
        monitor,
        ticker,
        // the remote terminal answers with a small fake shell (fake-shell.ts), the Files tab
        // browses a small fake file system (fake-files.ts)
        remote: {
          handlers: simulatedRemote(
            simulatedTerminals(device.facts.hostname),
            simulatedFiles(options.server, creds, device),
          ),
        },
        log: options.log,
        // A restarted server is found within 10 s (a refused connection costs the server
        // nothing); once it answers, its upgrade budget paces the fleet with Retry-After.
        backoff: options.backoff ?? { baseMs: 500, capMs: 10_000 },
        localAddress: options.localAddress,
      });
    const sim: SimulatedAgent = {
      device,
      agent: boot(),
      executor,
      outbox,
      deviceGuid: creds.device_guid,
      agentSecret: creds.agent_secret,
      timeZone: options.timezones?.[slot] ?? 'UTC',
    };
    sim.power = createPowerCycle(
      { ...DEFAULT_POWER, ...options.power },
      {
        stop: () => sim.agent.stop(),
        boot: () => {
          device.sessions = []; // a reboot signs everyone out
          sim.agent = boot();
          sim.agent.start();
        },
      },
    );
    executor.onPowerOff = (action) => {
      sim.power
        ?.powerOff(action)
        .catch((err: unknown) => options.log?.warn('power off failed', { err: String(err) }));
    };
    slots[i] = sim;
    sim.agent.start();
    options.onAgent?.(sim);
  };
  let next = 0;
  const failed: { error: Error | null } = { error: null };
  const worker = async () => {
    while (next < options.devices && !stopping.signal.aborted) {
      try {
        await enrolAndStart(next++);
      } catch (err) {
        // a refusal retrying cannot change (a revoked token, max_agents): the fleet stops
        failed.error ??= err instanceof Error ? err : new Error(String(err));
        stopping.abort();
      }
    }
  };
  await Promise.all(
    Array.from({ length: Math.max(1, Math.min(options.enrollConcurrency ?? 8, options.devices)) }, worker),
  );
  if (failed.error) {
    await Promise.all(slots.flatMap((a) => (a ? [a.agent.stop()] : [])));
    throw failed.error;
  }
  const agents = slots.filter((a): a is SimulatedAgent => a !== undefined);

  const variety = options.variety ? applyDemoVariety(agents, options.log) : null;

  const tickMs = options.tickMs ?? 20_000;
  const loginChance = options.loginChance ?? 0.3;
  const disconnectChance = options.disconnectChance ?? 0.01;
  const timer = setInterval(() => {
    for (const a of agents) {
      if (a.agent.connection.state !== 'connected') {
        continue;
      }
      if (behaviour.chance(disconnectChance)) {
        a.agent.connection.drop();
        continue;
      }
      if (options.workday) {
        followPlan(a, seed);
      } else if (behaviour.chance(loginChance)) {
        toggleSession(a, behaviour.next());
      }
    }
  }, tickMs);
  timer.unref();

  return {
    agents,
    async stop() {
      clearInterval(timer);
      variety?.stop();
      agents.forEach((a) => a.power?.cancel());
      await Promise.all(agents.map((a) => a.agent.stop()));
    },
  };
}

function toggleSession(a: SimulatedAgent, r: number) {
  const d = a.device;
  const at = new Date().toISOString();
  const open = d.sessions[0];
  if (open) {
    d.sessions = [];
    a.agent.reportActivity([
      {
        eventType: 'logout',
        userName: open.userName,
        sessionId: open.sessionId,
        ipAddress: open.ipAddress ?? null,
        timestamp: at,
      },
    ]);
    return;
  }
  const user = `${d.domain}\\${d.users[Math.floor(r * d.users.length)]}`;
  const session = {
    sessionId: simSessionId(`${d.facts.machineId}-${Date.now()}-${r}`),
    userName: user,
    ipAddress: d.facts.ipAddress ?? null,
    startedAt: at,
  };
  d.sessions = [session];
  a.agent.reportActivity([
    {
      eventType: 'login',
      userName: user,
      sessionId: session.sessionId,
      ipAddress: session.ipAddress,
      timestamp: at,
    },
  ]);
}

/**
 * Working-day mode: sign the planned user in or out when the plan for the site's local time says
 * so. A session signed in at boot by the demo variety (`…-boot`) is left alone, like a machine
 * someone left signed in.
 */
function followPlan(a: SimulatedAgent, seed: number, now = Date.now()) {
  const d = a.device;
  const open = d.sessions[0];
  if (open?.sessionId.endsWith('-boot')) {
    return;
  }
  const planned = plannedSessionAt(workdayDeviceOf(a), seed, now);
  if (open?.sessionId === planned?.sessionId) {
    return;
  }
  const at = new Date(now).toISOString();
  const ipAddress = d.facts.ipAddress ?? null;
  const events: Parameters<Agent['reportActivity']>[0] = [];
  if (open) {
    events.push({
      eventType: 'logout',
      userName: open.userName,
      sessionId: open.sessionId,
      ipAddress,
      timestamp: at,
    });
  }
  d.sessions = planned
    ? [{ sessionId: planned.sessionId, userName: planned.userName, ipAddress, startedAt: at }]
    : [];
  if (planned) {
    events.push({
      eventType: 'login',
      userName: planned.userName,
      sessionId: planned.sessionId,
      ipAddress,
      timestamp: at,
    });
  }
  a.agent.reportActivity(events);
}

/** A simulated device's remote access: the fake shell's sessions and the fake file system. */
function simulatedRemote(
  terminals: ReturnType<typeof simulatedTerminals>,
  files: ReturnType<typeof simulatedFiles>,
): RemoteHandlers {
  return {
    terminal: terminals.terminal,
    policyChanged: (policy) => terminals.policyChanged(policy),
    connectionLost: () => terminals.connectionLost(),
    files,
  };
}

/** A simulated device's deployments: its steps take their time and fail at the fleet's rate. */
function simulatedDeployments(
  options: FleetOptions,
  device: VirtualDevice,
  rng: ReturnType<typeof createRng>,
  stepExecutor: RecordingStepExecutor,
) {
  const platform = device.facts.osType === 'macos' ? 'darwin' : 'win32';
  return createSimulatedRunner(
    {
      failureRate: options.failureRate ?? DEFAULT_SIM_DEPLOYMENTS.failureRate,
      stepDurationMs: options.stepDurationMs ?? DEFAULT_SIM_DEPLOYMENTS.stepDurationMs,
      timeScale: options.timeScale ?? DEFAULT_SIM_DEPLOYMENTS.timeScale,
      platform,
      conditionProbes: simulatedConditionProbes(device, platform),
    },
    rng,
    stepExecutor,
  );
}
