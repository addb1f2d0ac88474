import path from 'node:path';
import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { preparePrivateDirs } from './lib/private-dir';
import { openDatabase } from './db/client';
import { seedDemo } from './modules/demo/demo.seed';
import { createLocalBlobStore } from './modules/files/blob-store';
import { startDemoFleet } from './modules/agents/demo-fleet';

async function main() {
  const config = loadConfig();
  preparePrivateDirs(config);
  const database = await openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: path.join(config.dataDir, 'pglite'),
  });
  const app = await buildApp({ config, database });
  if (config.demo) {
    const demo = await seedDemo(database.db, { blobStore: createLocalBlobStore(config.blobDir) });
    if (demo) {
      app.log.info('created the demo tenants "Acme Corp" and "Globex" (sign in as admin@acme.example)');
    }
  }

  let isClosing = false;
  let stopDemoFleet: (() => Promise<void>) | null = null;
  const shutdown = async (signal: string) => {
    if (isClosing) {
      return;
    }
    isClosing = true;
    app.log.info({ signal }, 'shutting down');
    const timer = setTimeout(() => process.exit(1), 10_000).unref();
    await stopDemoFleet?.();
    await app.close();
    await database.close();
    clearTimeout(timer);
    process.exit(0);
  };
  process.on('SIGINT', () => void shutdown('SIGINT'));
  process.on('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const shownHost = config.host === '0.0.0.0' || config.host === '::' ? 'localhost' : config.host;
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
  const db = database.kind === 'pglite' ? `PGlite in ${path.join(config.dataDir, 'pglite')}` : 'PostgreSQL';
  console.log(
    `\n  Outpost is ready at ${url}  (database: ${db}${config.devLogin ? ', dev sign-in enabled' : ''})\n`,
  );
  // The demo's simulated devices talk to this server over its own port (issue 3 §5).
  if (config.demo && config.demoDevices > 0) {
    const selfHost = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : shownHost;
    const selfUrl = `http://${selfHost.includes(':') ? `[${selfHost}]` : selfHost}:${port}`;
    const fleet = await startDemoFleet(database.db, selfUrl, config.demoDevices);
    if (fleet) {
      stopDemoFleet = fleet.stop;
      app.log.info(`demo: ${fleet.agents.length} simulated devices connected (OUTPOST_DEMO_DEVICES)`);
    }
  }
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError) {
    console.error(err.message);
  } else {
    console.error(err);
  }
  process.exit(1);
});
