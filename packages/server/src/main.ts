import cluster from 'node:cluster';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { preparePrivateDirs } from './lib/private-dir';
import { DatabaseDamagedError, DatabaseInUseError, openDatabase } from './db/client';
import { createDemo } from './modules/demo/demo';
import { reportReady, runWorkers } from './workers';

// Formats a host for a URL: an IPv6 address goes in brackets.
const urlOf = (host: string, port: number) => `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

async function main() {
  const config = loadConfig();
  preparePrivateDirs(config);
  if (config.webWorkers > 1 && cluster.isPrimary) {
    // the primary forks the workers, each of which runs the rest of main() (workers.ts)
    runWorkers(config, config.webWorkers, (ready, count) =>
      console.log(
        `\n  Outpost is ready at ${ready.url}  (database: ${ready.database}, ${count} workers)\n${signInBanner(config)}`,
      ),
    );
    return;
  }
  const logger: { current?: FastifyBaseLogger } = {}; // the app's, once it exists
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    preparedStatements: config.preparedStatements,
    pgliteDir: path.join(config.dataDir, 'pglite'),
    onConnectionError: (err) => logger.current?.warn({ err }, 'PostgreSQL ended a pooled connection'),
  });
  const app = await buildApp({ config, database });
  logger.current = app.log;
  const demo = config.demo ? createDemo(config, database, app.log) : null;
  await demo?.seed();

  let isClosing = false;
  const shutdown = async (signal: string) => {
    if (isClosing) {
      return;
    }
    isClosing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await demo?.stop();
    await app.close();
    await database.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const isWildcard = config.host === '0.0.0.0' || config.host === '::';
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const db = database.kind === 'pglite' ? `PGlite in ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL';
  const shownUrl = urlOf(isWildcard ? 'localhost' : config.host, port);
  if (cluster.isWorker) {
    reportReady({ type: 'outpost-ready', url: shownUrl, database: db });
  } else {
    console.log(`\n  Outpost is ready at ${shownUrl}  (database: ${db})\n${signInBanner(config)}`);
  }
  // The demo's simulated devices talk to this server over its own port, or through the load
  // balancer in front of several instances (OUTPOST_DEMO_FLEET_URL, set by `npm run cluster`).
  await demo?.startFleet(
    config.demoFleetUrl ?? urlOf(isWildcard ? '127.0.0.1' : config.host, port),
    app.demoSets,
  );
}

main().catch((err: unknown) => {
  if (
    err instanceof ConfigError ||
    err instanceof DatabaseDamagedError ||
    err instanceof DatabaseInUseError
  ) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});

/** How people sign in to this instance, said at start (SECURITY.md R2-7). */
function signInBanner(config: { devLogin: boolean; google: { clientId: string | null } }): string {
  if (config.devLogin) {
    return '  Dev sign-in is ON (OUTPOST_ALLOW_DEV_LOGIN=1): anyone on this machine can sign in as any user, without a password. Never use it in production.\n';
  }
  if (!config.google.clientId) {
    return '  No sign-in method is configured: set GOOGLE_CLIENT_ID (docs/operations.md, "Real Google sign-in"), or OUTPOST_ALLOW_DEV_LOGIN=1 for a local trial.\n';
  }
  return '';
}
