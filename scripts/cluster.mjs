#!/usr/bin/env node
// npm run cluster: the production layout on one machine (docs/operations.md#running-in-production): two
// instances of the built server on PostgreSQL and Redis, behind nginx running deploy/nginx.conf on
// loopback. Builds what is stale first (as npm start), creates the database when it is missing,
// starts instance 1 (which applies the migrations), then instance 2 (which seeds the demo and
// connects the demo's simulated devices through nginx, so they spread over both instances).
// Ctrl+C stops everything.
//
// Environment (all optional):
//   CLUSTER_PORT   nginx's port on 127.0.0.1 (3000); the instances listen on the next two ports
//   DATABASE_URL   postgres://postgres@127.0.0.1:5432/outpost_cluster (created when missing)
//   REDIS_URL      redis://127.0.0.1:6379
//   CLUSTER_DIR    data/cluster: each instance's DATA_DIR, the shared BLOB_DIR, the session secret
//                  and nginx's access log
//   OUTPOST_DEMO   1 (the demo tenants and simulated devices); 0 for an empty installation
//   LOG_LEVEL      warn (the instances' JSON logs; info shows every request)
// Any other server variable (GOOGLE_CLIENT_ID, METRICS_TOKEN, …) is passed to both instances;
// METRICS_PORT is given to instance 1 and METRICS_PORT+1 to instance 2.
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import readline from 'node:readline';
import pg from 'pg';
import { buildIfStale, root, targets } from './build-state.mjs';
import { clusterNginxConfig, ensureNginx, startNginx } from './nginx.mjs';

const env = process.env;
const DEFAULT_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/outpost_cluster';

function fail(message) {
  console.error(`\n  npm run cluster: ${message}\n`);
  process.exit(1);
}

const port = Number(env.CLUSTER_PORT || 3000);
if (!Number.isInteger(port) || port < 1 || port > 65533) {
  fail('CLUSTER_PORT must be a port number from 1 to 65533 (the instances use the next two).');
}
const instancePorts = [port + 1, port + 2];
const databaseUrl = env.DATABASE_URL || DEFAULT_DATABASE_URL;
const redisUrl = env.REDIS_URL || 'redis://127.0.0.1:6379';
const dir = path.resolve(root, env.CLUSTER_DIR || path.join('data', 'cluster'));
const url = `http://127.0.0.1:${port}`;

/** A URL to print: without its password. */
function shown(raw) {
  try {
    const u = new URL(raw);
    if (u.password) {
      u.password = '***';
    }
    return u.toString();
  } catch {
    return raw;
  }
}

/** Creates the database in DATABASE_URL when it does not exist (connecting to `postgres`). */
async function ensureDatabase() {
  const target = new URL(databaseUrl);
  const name = decodeURIComponent(target.pathname.slice(1));
  const admin = new URL(databaseUrl);
  admin.pathname = '/postgres';
  const client = new pg.Client({ connectionString: admin.toString() });
  try {
    await client.connect();
  } catch (err) {
    fail(
      `PostgreSQL at ${shown(databaseUrl)} is not reachable (${err instanceof Error ? err.message : err}).\n` +
        '  Start it, or point DATABASE_URL at one.',
    );
  }
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) {
      await client.query(`create database ${client.escapeIdentifier(name)}`);
      console.log(`Created the database ${name}`);
    }
  } finally {
    await client.end();
  }
}

/** Whether Redis answers PING at REDIS_URL. */
function redisAnswers() {
  const u = new URL(redisUrl);
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname || '127.0.0.1', port: Number(u.port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(3000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    // +PONG, or -NOAUTH when it wants the password REDIS_URL carries: either way Redis is there.
    socket.once('data', (data) => done(/^[+-]/.test(data.toString())));
  });
}

/** The shared SESSION_SECRET: the environment's, else one generated once and kept in CLUSTER_DIR. */
function sessionSecret() {
  if (env.SESSION_SECRET) {
    return env.SESSION_SECRET;
  }
  const file = path.join(dir, 'session-secret');
  if (!fs.existsSync(file)) {
    fs.writeFileSync(file, crypto.randomBytes(48).toString('base64'), { mode: 0o600 });
  }
  return fs.readFileSync(file, 'utf8').trim();
}

/** Writes a child's output line by line, each line after `label`. */
function prefixLines(stream, label, out) {
  readline.createInterface({ input: stream }).on('line', (line) => out.write(`${label} ${line}\n`));
}

const children = new Map(); // label → child process
let stopping = false;
let nginx = null;

async function stopAll(code) {
  if (stopping) {
    return;
  }
  stopping = true;
  console.log('\nStopping the cluster');
  // The instances first (they close their sockets and drain for up to 10 s), then nginx.
  await Promise.all(
    [...children.values()].map(
      (child) =>
        new Promise((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
          }
          const killer = setTimeout(() => child.kill('SIGKILL'), 15_000);
          child.once('exit', () => {
            clearTimeout(killer);
            resolve();
          });
          child.kill('SIGTERM');
        }),
    ),
  );
  await nginx?.stop();
  process.exit(code);
}

process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));

/** A one-time sign-in link for the demo's administrator, made by the admin CLI on the shared database. */
function demoSignInLink() {
  const run = spawnSync(
    process.execPath,
    [
      path.join(root, 'packages/server/dist/cli.js'),
      'sign-in-link',
      '--email',
      'admin@acme.example',
      '--url',
      url,
    ],
    {
      cwd: root,
      encoding: 'utf8',
      env: { ...env, DATABASE_URL: databaseUrl, DATA_DIR: path.join(dir, 'instance-1') },
    },
  );
  return run.status === 0 ? run.stdout.split('\n')[0] : `(no link: ${run.stderr.trim()})`;
}

function startInstance(index, extraEnv) {
  const label = `[${index}]`;
  const instanceDir = path.join(dir, `instance-${index}`);
  fs.mkdirSync(instanceDir, { recursive: true, mode: 0o700 });
  const metricsPort = env.METRICS_PORT ? { METRICS_PORT: String(Number(env.METRICS_PORT) + index - 1) } : {};
  const child = spawn(process.execPath, [path.join(root, targets.server.output)], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...env,
      LOG_LEVEL: env.LOG_LEVEL || 'warn',
      ...metricsPort,
      HOST: '127.0.0.1',
      PORT: String(instancePorts[index - 1]),
      DATA_DIR: instanceDir,
      BLOB_DIR: path.join(dir, 'blobs'),
      DATABASE_URL: databaseUrl,
      REDIS_URL: redisUrl,
      SESSION_SECRET: secret,
      // nginx is the one proxy in front (deploy/nginx.conf)
      TRUST_PROXY: '1',
      ...extraEnv,
    },
  });
  prefixLines(child.stdout, label, process.stdout);
  prefixLines(child.stderr, label, process.stderr);
  children.set(label, child);
  child.once('exit', (code, signal) => {
    if (!stopping) {
      console.error(`${label} instance ${index} exited (${code ?? signal}); stopping the cluster`);
      void stopAll(1);
    }
  });
  return child;
}

/** Resolves once the instance answers /api/health; fails when it exits first or takes 2 minutes. */
async function waitHealthy(index, child) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null || stopping) {
      return new Promise(() => undefined); // stopAll is already ending the process
    }
    try {
      const res = await fetch(`http://127.0.0.1:${instancePorts[index - 1]}/api/health`);
      if (res.ok) {
        return;
      }
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  console.error(`Instance ${index} did not become healthy within 2 minutes`);
  await stopAll(1);
}

// ── start ──────────────────────────────────────────────────────────────────────────────────
const nginxBinary = ensureNginx();
if (!nginxBinary) {
  fail("nginx is needed: install Debian's package (`sudo apt-get install nginx`) and run this again.");
}
buildIfStale(['web', 'server']);
if (!(await redisAnswers())) {
  fail(`Redis at ${shown(redisUrl)} is not reachable: start it (redis-server), or point REDIS_URL at one.`);
}
await ensureDatabase();
fs.mkdirSync(path.join(dir, 'blobs'), { recursive: true, mode: 0o700 });
fs.chmodSync(dir, 0o700);
const secret = sessionSecret();

const config = clusterNginxConfig({
  listen: `127.0.0.1:${port}`,
  upstreams: instancePorts.map((p) => `127.0.0.1:${p}`),
  accessLog: path.join(dir, 'nginx-access.log'),
});
try {
  nginx = await startNginx({
    config,
    ports: [port],
    nginx: nginxBinary,
    onOutput: (text) => process.stderr.write(text.replace(/^(?=.)/gm, '[nginx] ')),
  });
} catch (err) {
  fail(`nginx did not start on ${url}: ${err instanceof Error ? err.message : err}`);
}
void nginx.exited.then((code) => {
  if (!stopping) {
    console.error(`[nginx] exited (${code}); stopping the cluster`);
    void stopAll(1);
  }
});

// Instance 1 starts alone and applies the migrations (under PostgreSQL's advisory lock, as any
// instance would); instance 2 then finds them applied, seeds the demo on a new database and
// connects the demo fleet through nginx, which spreads its sockets over both instances.
const demo = env.OUTPOST_DEMO ?? '1';
const first = startInstance(1, { OUTPOST_DEMO: '0' });
await waitHealthy(1, first);
const second = startInstance(2, { OUTPOST_DEMO: demo, OUTPOST_DEMO_FLEET_URL: url });
await waitHealthy(2, second);

// Dev sign-in is never offered behind nginx (SECURITY.md R2-7): without an identity provider the
// demo's administrator gets a one-time sign-in link instead.
const signIn =
  demo === '1' && !env.GOOGLE_CLIENT_ID ? `    Sign in as admin@acme.example: ${demoSignInLink()}\n` : '';

console.log(`
  Outpost cluster is ready at ${url}

    nginx ${url} (deploy/nginx.conf; generated config ${nginx.configFile})
      → instance 1 http://127.0.0.1:${instancePorts[0]}   [1] in the log
      → instance 2 http://127.0.0.1:${instancePorts[1]}   [2] in the log
    PostgreSQL ${shown(databaseUrl)}
    Redis      ${shown(redisUrl)}
    Data       ${dir.startsWith(root + path.sep) ? path.relative(root, dir) : dir} (instance-1/, instance-2/, blobs/ shared, nginx-access.log)
${demo === '1' ? `\n    The demo: its simulated devices connect through nginx.\n${signIn}` : ''}
  Ctrl+C stops everything.
`);
