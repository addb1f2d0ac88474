import { parseArgs } from 'node:util';
import type { Logger } from '../connection';
import { startFleet } from './fleet';

// npm run sim -- --server URL --token T --devices N [--seed S] [--tick-ms MS]
//   [--failure-rate 0.05] [--step-ms 1000-4000]

const log: Logger = {
  info: () => undefined,
  warn: (msg) => console.warn('WARN', msg),
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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.server || !values.token?.length) {
    console.log(
      'Usage: npm run sim -- --server URL --token T [--token T2 …] --devices N [--seed S] [--tick-ms MS]\n' +
        '         [--failure-rate 0.05] (chance that a deployment step attempt fails, 0 to 1)\n' +
        '         [--step-ms 1000-4000] (how long a deployment step takes, ms, or a min-max range)',
    );
    process.exit(values.help ? 0 : 1);
  }
  const devices = Number(values.devices);
  const failureRate = Number(values['failure-rate']);
  if (!(failureRate >= 0 && failureRate <= 1)) {
    throw new Error('--failure-rate must be a number from 0 to 1');
  }
  const stepDurationMs = parseRange(values['step-ms']);
  const fleet = await startFleet({
    server: values.server,
    tokens: values.token,
    devices,
    seed: Number(values.seed),
    tickMs: Number(values['tick-ms']),
    failureRate,
    stepDurationMs,
    log,
  });
  console.log(
    `Simulating ${fleet.agents.length} devices against ${values.server} (seed ${values.seed}). Ctrl+C stops.`,
  );
  const report = setInterval(() => {
    const connected = fleet.agents.filter((a) => a.agent.connection.state === 'connected').length;
    console.log(`${new Date().toISOString()} connected ${connected}/${fleet.agents.length}`);
  }, 30_000);
  const stop = async () => {
    clearInterval(report);
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
