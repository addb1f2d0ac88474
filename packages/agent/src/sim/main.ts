import fs from 'node:fs';
import { parseArgs } from 'node:util';
import type { Logger } from '../connection';
import { startFleet } from './fleet';
import { SIM_FAULT_NAMES, parseSimFaults } from './sim-faults';
import type { SimulatedAgent } from './simulated-agent';

// npm run sim -- --server URL --token T --devices N [--seed S] [--tick-ms MS]
//   [--failure-rate 0.05] [--step-ms 1000-4000] [--login-chance 0.3] [--disconnect-chance 0.01]
//   [--enroll-concurrency 8] [--report-ms 30000] [--events FILE] [--faults hotCpu=0.1,…]
//   [--local-address 127.0.0.2] [--no-software]

// Warnings are counted and summarised with each report: ten thousand agents waiting for a
// restarted server would otherwise print tens of thousands of lines.
const warnings = new Map<string, number>();
const log: Logger = {
  info: () => undefined,
  warn: (msg) => {
    const key = msg.replace(/\d+/g, 'N').slice(0, 80);
    warnings.set(key, (warnings.get(key) ?? 0) + 1);
  },
  error: (msg) => console.error('ERROR', msg),
};

async function main() {
  const { values } = parseArgs({
    options: {
      server: { type: 'string' },
      token: { type: 'string', multiple: true },
      devices: { type: 'string', default: '25' },
      seed: { type: 'string', default: '1' },
      'tick-ms': { type: 'string', default: '20000' },
      'failure-rate': { type: 'string', default: '0.05' },
      'step-ms': { type: 'string', default: '1000-4000' },
      'login-chance': { type: 'string', default: '0.3' },
      'disconnect-chance': { type: 'string', default: '0.01' },
      'enroll-concurrency': { type: 'string', default: '8' },
      'report-ms': { type: 'string', default: '30000' },
      events: { type: 'string' },
      faults: { type: 'string' },
      'local-address': { type: 'string' },
      'no-software': { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.server || !values.token?.length) {
    console.log(
      'Usage: npm run sim -- --server URL --token T [--token T2 …] --devices N [--seed S] [--tick-ms MS]\n' +
        '         [--failure-rate 0.05] (chance that a deployment step attempt fails, 0 to 1)\n' +
        '         [--step-ms 1000-4000] (how long a deployment step takes, ms, or a min-max range)\n' +
        '         [--login-chance 0.3] [--disconnect-chance 0.01] (per device and tick)\n' +
        '         [--enroll-concurrency 8] (enrolments in flight; each agent connects once enrolled)\n' +
        '         [--report-ms 30000] (a JSON progress line this often)\n' +
        '         [--local-address 127.0.0.2] (the address the agent sockets bind: one per simulator process\n' +
        "          when a fleet needs more than one address's ephemeral ports)\n" +
        '         [--no-software] (machines without installed software: cheaper first inventories)\n' +
        '         [--events FILE] (appends the time, in epoch ms, of every connection the fleet makes)\n' +
        `         [--faults name=share,…] (monitoring faults, shares 0 to 1: ${SIM_FAULT_NAMES.join(', ')};\n` +
        '          failingCheck=<check id> fails that check everywhere; none by default)',
    );
    process.exit(values.help ? 0 : 1);
  }
  const devices = Number(values.devices);
  const failureRate = Number(values['failure-rate']);
  if (!(failureRate >= 0 && failureRate <= 1)) {
    throw new Error('--failure-rate must be a number from 0 to 1');
  }
  const stepDurationMs = parseRange(values['step-ms']);
  const reportMs = Number(values['report-ms']);
  const eventsFile = values.events;
  let enrolled = 0;
  const connections: number[] = [];
  const agents: SimulatedAgent[] = [];
  const report = () => {
    if (eventsFile && connections.length > 0) {
      fs.appendFileSync(
        eventsFile,
        connections
          .splice(0)
          .map((t) => `${t.toFixed(1)}\n`)
          .join(''),
      );
    }
    const connected = agents.filter((a) => a.agent.connection.state === 'connected').length;
    console.log(
      JSON.stringify({
        at: new Date().toISOString(),
        devices,
        enrolled,
        connected,
        ...(warnings.size > 0 && { warnings: Object.fromEntries(warnings) }),
      }),
    );
    warnings.clear();
  };
  const reporter = setInterval(report, reportMs);
  const fleet = await startFleet({
    server: values.server,
    tokens: values.token,
    devices,
    seed: Number(values.seed),
    tickMs: Number(values['tick-ms']),
    loginChance: Number(values['login-chance']),
    disconnectChance: Number(values['disconnect-chance']),
    enrollConcurrency: Number(values['enroll-concurrency']),
    failureRate,
    stepDurationMs,
    ...(values.faults !== undefined && { faults: parseSimFaults(values.faults) }),
    ...(values['local-address'] !== undefined && { localAddress: values['local-address'] }),
    noSoftware: values['no-software'],
    log,
    onAgent: (a) => {
      enrolled++;
      agents.push(a);
      // every welcome of this agent is a connection (a rebooted simulated machine has a new agent,
      // not watched: the benchmarks do not reboot machines)
      a.agent.connection.onState((state) => {
        if (state === 'connected') {
          connections.push(performance.timeOrigin + performance.now());
        }
      });
    },
  });
  console.log(
    `Simulating ${fleet.agents.length} devices against ${values.server} (seed ${values.seed}). Ctrl+C stops.`,
  );
  report();
  const stop = async () => {
    clearInterval(reporter);
    report();
    await fleet.stop();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

/** "2000" or "1000-4000" → {min, max} */
function parseRange(value: string): { min: number; max: number } {
  const parts = value.split('-').map((v) => Number(v.trim()));
  const min = parts[0] ?? NaN;
  const max = parts[1] ?? min;
  if (parts.length > 2 || !Number.isFinite(min) || !Number.isFinite(max) || min < 0 || max < min) {
    throw new Error('--step-ms must be milliseconds (2000) or a range (1000-4000)');
  }
  return { min, max };
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
