import fs from 'node:fs';
import path from 'node:path';
import { isSea } from 'node:sea';
import { parseArgs } from 'node:util';
import { RecordingExecutor, SystemExecutor, isDryRun } from './actions/executor';
import { createAgent } from './agent';
import { createStepsRunner } from './deployment/steps-runner';
import { AgentConfig, defaultConfigPath, loadAgentConfig, saveAgentConfig } from './config';
import type { Logger } from './connection';
import { createFileJournal } from './deployment/journal';
import { enrollDevice } from './enroll';
import type { AgentIdentity } from './enroll';
import { collectFacts } from './inventory/system';
import { createFileOutbox } from './outbox';
import { createSystemBackend } from './system-backend';
import { AGENT_VERSION } from './version';
import { createUpdater, UPDATE_EXIT_CODE } from './update/updater';

// npm run agent -- enroll --server URL --token T [--config PATH]
// npm run agent -- run [--config PATH]

const USAGE = `Outpost agent ${AGENT_VERSION}
  enroll --server URL --token TOKEN [--config PATH]   enrol this machine and store its identity
  run [--config PATH]                                  connect and report (Ctrl+C to stop)
Config default: ${defaultConfigPath()} (or OUTPOST_AGENT_CONFIG). OUTPOST_AGENT_DRY_RUN=1 records
device actions and service control instead of performing them.`;

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

async function enroll(args: { server?: string; token?: string; config: string; 'no-external-ip'?: boolean }) {
  if (!args.server || !args.token) {
    throw new Error(`--server and --token are required\n\n${USAGE}`);
  }
  const facts = await collectFacts();
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
    stateDir: path.join(path.dirname(args.config), 'state'),
    externalIpUrl: args['no-external-ip'] ? null : undefined,
  });
  saveAgentConfig(args.config, config);
  console.log(
    `Enrolled ${facts.hostname} as ${result.device_guid}${result.reused ? ' (existing device record)' : ''}.`,
  );
  console.log(
    `Identity saved to ${args.config} (mode 0600). Start with: npm run agent -- run --config ${args.config}`,
  );
}

async function run(args: { config: string }) {
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
  const executor = isDryRun() ? new RecordingExecutor() : new SystemExecutor();
  const agent = createAgent({
    server: config.server,
    deviceGuid: config.deviceGuid,
    agentSecret: config.agentSecret,
    outbox: createFileOutbox(path.join(config.stateDir, 'outbox')),
    // deployments run with the step library; the journal remembers which ones were running,
    // so a restart never runs one twice
    deployments: createStepsRunner({
      server: config.server,
      deviceGuid: config.deviceGuid,
      agentSecret: config.agentSecret,
    }),
    journal: createFileJournal(path.join(config.stateDir, 'deployments.json')),
    backend: createSystemBackend({ externalIpUrl: config.externalIpUrl }),
    executor,
    log,
    selfUpdate: {
      pendingCommandId: () => updater.pendingCommandId(),
      settle: () => updater.settle(),
      apply: (commandId, command) => updater.apply(commandId, command),
      restart: () => void stop(UPDATE_EXIT_CODE),
    },
  });
  agent.connection.onState((state) => log.info(`connection ${state}`));
  agent.start();
  log.info(`agent ${AGENT_VERSION} running for device ${config.deviceGuid} against ${config.server}`);
  const stop = async (code = 0) => {
    await agent.stop();
    process.exit(code);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      server: { type: 'string' },
      token: { type: 'string' },
      config: { type: 'string', default: defaultConfigPath() },
      'no-external-ip': { type: 'boolean' },
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
  if (values.help || !command) {
    console.log(USAGE);
    return;
  }
  const config = path.resolve(values.config);
  if (command === 'enroll') {
    await enroll({ ...values, config });
  } else if (command === 'run') {
    await run({ config });
  } else {
    throw new Error(`Unknown command "${command}"\n\n${USAGE}`);
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
