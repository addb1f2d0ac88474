import fs from 'node:fs';
import path from 'node:path';
import { isSea } from 'node:sea';
import { parseArgs } from 'node:util';
import { RecordingExecutor, SystemExecutor, isDryRun } from './actions/executor';
import { agentStepExecutor } from './actions/step-executor';
import { createAgent } from './agent';
import { lazyScriptExecutor, lazyStepsRunner, remoteHandlers } from './system-work';
import { AgentConfig, defaultConfigPath, loadAgentConfig, saveAgentConfig } from './config';
import type { Logger } from './connection';
import { createFileJournal } from './deployment/journal';
import { enrollDevice } from './enroll';
import type { AgentIdentity } from './enroll';
import { memoryLimitMb, watchMemory } from './memory-ceiling';
import { createFileOutbox } from './outbox';
import { sessionPollMs } from './inventory/sessions-watch';
import { PROBE_WORKER_COMMAND, runProbeWorker } from './inventory/probe-worker';
import { answerConsoleList, consoleListRequest } from './remote/pty-console-list';
import { createSystemBackend, probeSource, probesMode } from './system-backend';
import { openCrashMarker } from './crash-marker';
import { createSystemMonitor } from './monitoring/system-monitor';
import { systemSources } from './monitoring/system-sources';
import { DryRunInstallHost, SystemInstallHost } from './service/host';
import type { InstallHost } from './service/host';
import { installService, uninstallService } from './service/install';
import { installLayout } from './service/layout';
import { AGENT_VERSION } from './version';
import { createUpdater, UPDATE_EXIT_CODE } from './update/updater';

// outpost-agent (the single executable) or, from the repository, npm run agent -- :
//   enroll --server URL --token T [--config PATH]
//   run [--config PATH]
//   install [--server URL --token T] [--config PATH]   /   uninstall [--purge]
//   version [--verbose]   /   --version

/** how to call this program in messages: the executable, or the npm script from source */
const SELF = isSea() ? path.basename(process.execPath) : 'npm run agent --';

const USAGE = `Outpost agent ${AGENT_VERSION}
  enroll --server URL --token TOKEN [--config PATH]   enrol this machine and store its identity
  run [--config PATH]                                  connect and report (Ctrl+C to stop)
  install [--server URL --token TOKEN] [--config PATH]
                  install this executable as a service (systemd, Windows service, launchd),
                  enrolling first with --server and --token, or taking the identity at --config
  uninstall [--purge]                                  remove the service; --purge also the identity
  version [--verbose]                                  print the version (--verbose: runtime too)
Config default: ${defaultConfigPath()} (or OUTPOST_AGENT_CONFIG). OUTPOST_AGENT_DRY_RUN=1 records
device actions, service control and install steps instead of performing them.`;

const log: Logger = {
  info: (msg, extra) => console.log(new Date().toISOString(), msg, extra ? JSON.stringify(extra) : ''),
  warn: (msg, extra) =>
    console.warn(new Date().toISOString(), 'WARN', msg, extra ? JSON.stringify(extra) : ''),
  error: (msg, extra) =>
    console.error(new Date().toISOString(), 'ERROR', msg, extra ? JSON.stringify(extra) : ''),
};

function readExistingIdentity(file: string): AgentIdentity | null {
  if (!fs.existsSync(file)) {
    return null;
  }
  try {
    const { deviceGuid, agentSecret } = loadAgentConfig(file);
    return { deviceGuid, agentSecret };
  } catch {
    // An unreadable or invalid file proves nothing: enrol as a new device.
    return null;
  }
}

async function enroll(args: {
  server?: string;
  token?: string;
  config: string;
  'no-external-ip'?: boolean;
  stateDir?: string;
}) {
  if (!args.server || !args.token) {
    throw new Error(`--server and --token are required\n\n${USAGE}`);
  }
  const facts = await (await import('./inventory/probes')).collectFacts();
  // An identity kept from an earlier enrolment (a reinstall over the same configuration) proves
  // this is the same device, so the server keeps its record; anything else enrols a new device.
  const current = readExistingIdentity(args.config);
  const result = await enrollDevice(
    args.server,
    args.token,
    { ...facts, agentVersion: AGENT_VERSION },
    current,
  );
  const config = AgentConfig.parse({
    server: args.server,
    deviceGuid: result.device_guid,
    agentSecret: result.agent_secret,
    stateDir: args.stateDir ?? path.join(path.dirname(args.config), 'state'),
    externalIpUrl: args['no-external-ip'] ? null : undefined,
  });
  saveAgentConfig(args.config, config);
  console.log(
    `Enrolled ${facts.hostname} as ${result.device_guid}${result.reused ? ' (existing device record)' : ''}.`,
  );
  console.log(
    `Identity saved to ${args.config} (mode 0600). Start with: ${SELF} run --config ${args.config}`,
  );
}

async function run(args: { config: string; stopOnStdinEnd?: boolean }) {
  const config = loadAgentConfig(args.config);
  // Self-update (update/updater.ts): a freshly updated agent counts this start before connecting
  // and rolls back to the previous executable when it keeps failing.
  const updater = createUpdater({
    exePath: process.execPath,
    isPackaged: isSea(),
    version: AGENT_VERSION,
    stateDir: config.stateDir,
    server: config.server,
    deviceGuid: config.deviceGuid,
    agentSecret: config.agentSecret,
    confirmTimeoutMs: Number(process.env.OUTPOST_AGENT_UPDATE_CONFIRM_MS) || undefined,
    log,
  });
  const startup = await updater.beforeStart();
  if (startup.action === 'exit') {
    process.exit(startup.code);
  }
  // written now, removed on a clean stop: found here, the previous run crashed (crash-marker.ts)
  const crashMarker = openCrashMarker(config.stateDir);
  if (crashMarker.previousCrash) {
    log.warn(crashMarker.previousCrash.reason ?? 'the agent did not stop cleanly');
  }
  const executor = isDryRun() ? new RecordingExecutor() : new SystemExecutor();
  const probes = probeSource(probesMode());
  const backend = createSystemBackend({ externalIpUrl: config.externalIpUrl, probeSource: probes });
  const monitor = createSystemMonitor(
    systemSources({
      stateDir: config.stateDir,
      probes,
      crashedRestartAt: crashMarker.previousCrash ? Date.now() : null,
    }),
  );
  // messages and restarts of REBOOT and MESSAGE steps; who is logged in comes from the backend
  const stepExecutor = agentStepExecutor(() => backend.sessions?.() ?? Promise.resolve([]));
  const agent = createAgent({
    server: config.server,
    deviceGuid: config.deviceGuid,
    agentSecret: config.agentSecret,
    outbox: createFileOutbox(path.join(config.stateDir, 'outbox')),
    // deployments run with the step library in the agent's private work folder
    // (<stateDir>/work); the journal remembers which ones were running, so a restart never runs
    // one twice
    deployments: lazyStepsRunner(config, executor, stepExecutor),
    scripts: lazyScriptExecutor(config, executor),
    journal: createFileJournal(path.join(config.stateDir, 'deployments.json')),
    backend,
    executor,
    stepExecutor,
    log,
    sessionPollMs: sessionPollMs(),
    monitor,
    // the terminal and file handlers (remote/); the owner may turn remote access off in the config
    remote: { handlers: remoteHandlers(config, stepExecutor, log), allowed: config.remote },
    restartedAfterCrash: crashMarker.previousCrash,
    selfUpdate: {
      pendingCommandId: () => updater.pendingCommandId(),
      settle: () => updater.settle(),
      apply: (commandId, command) => updater.apply(commandId, command),
      restart: () => void stop(UPDATE_EXIT_CODE),
    },
  });
  agent.connection.onState((state) => log.info(`connection ${state}`));
  agent.start();
  // past its memory limit for a while, the agent reports it, stops and exits for its service
  // manager to start it again (memory-ceiling.ts)
  watchMemory({
    limitMb: memoryLimitMb(config.memoryLimitMb),
    log,
    report: (message) => agent.reportFault(true, message, 'memory_limit'),
    // a restart on purpose, reported as its own fault: not a crash
    stop: async () => {
      await agent.stop();
      crashMarker.clear();
    },
    exit: (code) => process.exit(code),
  });
  log.info(`agent ${AGENT_VERSION} running for device ${config.deviceGuid} against ${config.server}`);
  const stop = async (code = 0) => {
    await agent.stop();
    crashMarker.clear();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
  if (args.stopOnStdinEnd) {
    // the Windows service wrapper stops the agent by closing its standard input
    process.stdin.on('end', () => void stop());
    process.stdin.resume();
  }
}

function installHost(): InstallHost {
  if (!isDryRun()) {
    return new SystemInstallHost();
  }
  const platform = process.platform;
  if (platform !== 'linux' && platform !== 'win32' && platform !== 'darwin') {
    throw new Error(`outpost-agent install supports Linux, Windows and macOS, not ${platform}`);
  }
  return new DryRunInstallHost(platform);
}

function printDryRun(host: InstallHost) {
  if (host instanceof DryRunInstallHost) {
    console.log('OUTPOST_AGENT_DRY_RUN: nothing was changed; the steps would have been:');
    for (const step of host.steps) {
      console.log(
        JSON.stringify(
          step.op === 'write'
            ? { ...step, mode: step.mode.toString(8), content: `${step.content.length} characters` }
            : step.op === 'mkdir'
              ? { ...step, mode: step.mode.toString(8) }
              : step,
        ),
      );
    }
  }
}

async function install(args: {
  server?: string;
  token?: string;
  config?: string;
  'no-external-ip'?: boolean;
}) {
  if (!isSea()) {
    throw new Error(
      'install installs the single executable (npm run build:agent-exe); it cannot install from source.',
    );
  }
  const host = installHost();
  if (!(await host.isPrivileged())) {
    throw new Error(
      host.platform === 'win32'
        ? 'Run this from an elevated prompt (Run as administrator).'
        : 'Run this as root (sudo).',
    );
  }
  const layout = installLayout(host.platform);
  let configSource: string | undefined;
  if (args.server || args.token) {
    if (host instanceof DryRunInstallHost) {
      // what the enrolment would write, so that the rest of the plan follows from it
      host.write(layout.config, `(enrolled against ${args.server})`, 0o600);
    } else {
      await enroll({ ...args, config: layout.config, stateDir: layout.stateDir });
    }
  } else {
    configSource = args.config
      ? path.resolve(args.config)
      : host.exists(layout.config)
        ? undefined
        : defaultConfigPath();
  }
  const done = await installService(host, { executable: process.execPath, configSource });
  printDryRun(host);
  for (const line of done) {
    console.log(line);
  }
}

async function uninstall(args: { purge?: boolean }) {
  const host = installHost();
  const done = await uninstallService(host, { executable: process.execPath, purge: args.purge });
  printDryRun(host);
  for (const line of done) {
    console.log(line);
  }
}

function printVersion(verbose: boolean) {
  console.log(AGENT_VERSION);
  if (verbose) {
    console.log(`node ${process.version}`);
    console.log(`platform ${process.platform}-${process.arch}`);
    console.log(`executable ${isSea() ? process.execPath : 'no (run from source)'}`);
  }
}

async function main() {
  const consoleList = consoleListRequest(process.argv, typeof process.send === 'function');
  if (consoleList) {
    // node-pty's fork on Windows, which re-runs this executable: never a second agent
    answerConsoleList(consoleList);
    return;
  }
  if (process.argv.includes(PROBE_WORKER_COMMAND) && process.send) {
    // started by the agent to run its probes (inventory/probe-worker.ts)
    runProbeWorker();
    return;
  }
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      config: { type: 'string' },
      'no-external-ip': { type: 'boolean' },
      'stop-on-stdin-end': { type: 'boolean' },
      purge: { type: 'boolean' },
      verbose: { type: 'boolean' },
      version: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
      // the updater runs a downloaded executable with this before swapping it in
      'self-test': { type: 'boolean' },
    },
  });
  if (values['self-test']) {
    console.log(`outpost-agent ${AGENT_VERSION}`);
    return;
  }
  const command = positionals[0];
  if (values.version || command === 'version') {
    printVersion(Boolean(values.verbose));
    return;
  }
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const config = path.resolve(values.config ?? defaultConfigPath());
  if (command === 'enroll') {
    await enroll({ ...values, config });
  } else if (command === 'run') {
    await run({ config, stopOnStdinEnd: values['stop-on-stdin-end'] });
  } else if (command === 'install') {
    await install(values);
  } else if (command === 'uninstall') {
    await uninstall(values);
  } else {
    throw new Error(`Unknown command "${command}"\n\n${USAGE}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
