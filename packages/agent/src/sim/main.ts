import { parseArgs } from 'node:util';
import type { Logger } from '../connection';
import { startFleet } from './fleet';

// npm run sim -- --server URL --token T --devices N [--seed S] [--tick-ms MS]

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
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || !values.server || !values.token?.length) {
    console.log(
      'Usage: npm run sim -- --server URL --token T [--token T2 …] --devices N [--seed S] [--tick-ms MS]',
    );
    process.exit(values.help ? 0 : 1);
  }
  const devices = Number(values.devices);
  const fleet = await startFleet({
    server: values.server,
    tokens: values.token,
    devices,
    seed: Number(values.seed),
    tickMs: Number(values['tick-ms']),
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

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
