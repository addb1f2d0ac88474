// nginx in front of several Outpost instances, from deploy/nginx.conf (the one source of truth):
// `npm run cluster` and the cluster integration test run Debian's nginx as a foreground process
// with a temporary prefix, on a config generated from that file with only the parts that differ
// on loopback replaced (the listen address, the upstream's servers, no TLS). docs/operations.md#running-in-production.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNginx, printNginx } from './nginx-syntax.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DEPLOY_NGINX_CONF = path.join(root, 'deploy', 'nginx.conf');

// The parser and printer of nginx's configuration syntax live in nginx-syntax.mjs.
export { parseNginx, printNginx } from './nginx-syntax.mjs';

const clone = (value) => structuredClone(value);

// ── deploy/nginx.conf on loopback ───────────────────────────────────────────────────────────

/**
 * The complete nginx.conf for a cluster on this machine: deploy/nginx.conf's http-level blocks
 * (its upstream, map and main server block, every location as written) inside a minimal main
 * context, with only these substitutions: the upstream's servers are `upstreams` (each keeps the
 * parameters the file gives its first server), the main server listens on `listen` in plain HTTP
 * (its listen and ssl_* lines are dropped) and logs to `accessLog` (a file, or off), and the HTTP→HTTPS redirect
 * server is left out. `pinned` adds, for tests, a copy of the main server per entry that listens
 * on its own address and proxies to one instance only, so a test can reach a chosen instance
 * through the same locations. Throws when the file no longer has the shape this relies on.
 *
 * @param {{ listen: string, upstreams: string[], pinned?: { listen: string, upstream: string }[],
 *   source?: string, accessLog?: string }} options
 */
export function clusterNginxConfig(options) {
  const { listen, upstreams, pinned = [], accessLog = 'off' } = options;
  const source = options.source ?? fs.readFileSync(DEPLOY_NGINX_CONF, 'utf8');
  if (upstreams.length === 0) {
    throw new Error('clusterNginxConfig: at least one upstream server');
  }
  const directives = parseNginx(source);
  const upstreamBlocks = directives.filter((d) => d.name === 'upstream');
  if (upstreamBlocks.length !== 1) {
    throw new Error(`deploy/nginx.conf: expected one upstream block, found ${upstreamBlocks.length}`);
  }
  const upstream = upstreamBlocks[0];
  const upstreamName = upstream.args[0];
  const firstServer = upstream.block.find((d) => d.name === 'server');
  if (!firstServer) {
    throw new Error('deploy/nginx.conf: the upstream block lists no server');
  }
  const serverParams = firstServer.args.slice(1);
  const withServers = (block, addresses) => {
    const at = block.findIndex((d) => d.name === 'server');
    const rest = block.filter((d) => d.name !== 'server');
    rest.splice(at, 0, ...addresses.map((a) => ({ name: 'server', args: [a, ...serverParams] })));
    return rest;
  };
  upstream.block = withServers(upstream.block, upstreams);

  // The redirect server answers with `return` at its top level; the main one proxies.
  const servers = directives.filter((d) => d.name === 'server');
  const main = servers.filter((s) => !s.block.some((d) => d.name === 'return'));
  if (main.length !== 1) {
    throw new Error(`deploy/nginx.conf: expected one proxying server block, found ${main.length}`);
  }
  const mainServer = main[0];
  const listenAt = mainServer.block.findIndex((d) => d.name === 'listen');
  if (listenAt < 0) {
    throw new Error('deploy/nginx.conf: the server block has no listen directive');
  }
  const isListenOrTls = (d) => d.name === 'listen' || d.name.startsWith('ssl_');
  const serverOn = (address) => {
    const block = clone(mainServer.block.filter((d) => !isListenOrTls(d)));
    block.splice(listenAt, 0, { name: 'listen', args: [address] });
    for (const d of block) {
      if (d.name === 'access_log') {
        d.args = accessLog === 'off' ? ['off'] : [accessLog, ...d.args.slice(1)];
      }
    }
    return { name: 'server', args: [], block };
  };

  const http = [];
  for (const d of directives) {
    if (d.name === 'server') {
      if (d === mainServer) {
        http.push(serverOn(listen));
      }
    } else {
      http.push(d);
    }
  }
  pinned.forEach((pin, i) => {
    const name = `${upstreamName}_pinned_${i + 1}`;
    http.push({ name: 'upstream', args: [name], block: withServers(clone(upstream.block), [pin.upstream]) });
    const server = serverOn(pin.listen);
    const repoint = (block) => {
      for (const d of block) {
        if (d.name === 'proxy_pass' && d.args[0] === `http://${upstreamName}`) {
          d.args = [`http://${name}`];
        }
        if (d.block) {
          repoint(d.block);
        }
      }
    };
    repoint(server.block);
    http.push(server);
  });

  return (
    '# Generated by scripts/nginx.mjs from deploy/nginx.conf (edit that file, not this one):\n' +
    `# plain HTTP on ${listen}, upstream ${upstreams.join(', ')}.\n` +
    printNginx(mainContext(http))
  );
}

/**
 * deploy/nginx.conf exactly as written (TLS and the redirect server included) in a main context,
 * with only its certificate paths replaced and its access log off: what `nginx -t` checks before
 * a certificate exists, without writing to /var/log/nginx.
 */
export function deployNginxConfig({ certificate, certificateKey, source }) {
  const directives = parseNginx(source ?? fs.readFileSync(DEPLOY_NGINX_CONF, 'utf8'));
  const replaced = new Set();
  const walk = (block) => {
    for (const d of block) {
      if (d.name === 'access_log') {
        d.args = ['off'];
      }
      if (d.name === 'ssl_certificate' || d.name === 'ssl_certificate_key') {
        d.args = [d.name === 'ssl_certificate' ? certificate : certificateKey];
        replaced.add(d.name);
      }
      if (d.block) {
        walk(d.block);
      }
    }
  };
  walk(directives);
  if (replaced.size !== 2) {
    throw new Error('deploy/nginx.conf: expected ssl_certificate and ssl_certificate_key');
  }
  return printNginx(mainContext(directives));
}

// A minimal main context around http-level blocks (what /etc/nginx/nginx.conf gives a conf.d
// file); temporary files go under the prefix, relative paths being the prefix's.
function mainContext(http) {
  const tempPaths = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => ({
    name: `${kind}_temp_path`,
    args: [`temp/${kind}`],
  }));
  return [
    { name: 'worker_processes', args: ['1'] },
    { name: 'events', args: [], block: [{ name: 'worker_connections', args: ['4096'] }] },
    { name: 'http', args: [], block: [{ name: 'access_log', args: ['off'] }, ...tempPaths, ...http] },
  ];
}

// ── Running Debian's nginx ──────────────────────────────────────────────────────────────────

/** The nginx binary (PATH, else Debian's /usr/sbin/nginx), or null. */
export function findNginx() {
  for (const dir of [...(process.env.PATH ?? '').split(path.delimiter), '/usr/sbin', '/sbin']) {
    if (!dir) {
      continue;
    }
    const file = path.join(dir, 'nginx');
    try {
      fs.accessSync(file, fs.constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return null;
}

/** nginx, installed from Debian's packages when missing (as test-all installs Chromium); null if that fails. */
export function ensureNginx() {
  const found = findNginx();
  if (found) {
    return found;
  }
  if (!fs.existsSync('/usr/bin/apt-get')) {
    console.error(
      'nginx is not installed, and this is not a Debian system: install nginx and put it on PATH.',
    );
    return null;
  }
  console.log("Installing nginx from Debian's packages");
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  const ok =
    spawnSync(
      'bash',
      [
        '-c',
        `${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq --no-install-recommends nginx`,
      ],
      { stdio: 'inherit' },
    ).status === 0;
  if (!ok) {
    console.error('Could not install nginx (`sudo apt-get install nginx`).');
  }
  return findNginx();
}

/** A port free on 127.0.0.1 right now (nginx cannot listen on port 0). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function makePrefix() {
  const prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-nginx-'));
  // Started as root, nginx's workers run as nobody: they must reach the temp folders under it.
  fs.chmodSync(prefix, 0o755);
  fs.mkdirSync(path.join(prefix, 'temp'));
  return prefix;
}

// Everything that names a file outside the config goes on the command line, so the generated
// config stays the deploy file's blocks and nothing writes to /var/log/nginx or /run.
const globals = (prefix) => `daemon off; pid ${path.join(prefix, 'nginx.pid')}; error_log stderr warn;`;

/** `nginx -t` on a complete config: whether it passed, and what nginx said. */
export function testNginxConfig(config, nginx = findNginx()) {
  if (!nginx) {
    throw new Error('nginx is not installed (`apt-get install nginx`)');
  }
  const prefix = makePrefix();
  try {
    const file = path.join(prefix, 'nginx.conf');
    fs.writeFileSync(file, config);
    const tested = spawnSync(nginx, ['-t', '-p', prefix, '-c', file, '-g', globals(prefix)], {
      encoding: 'utf8',
    });
    return { ok: tested.status === 0, output: `${tested.stdout}${tested.stderr}`.trim() };
  } finally {
    fs.rmSync(prefix, { recursive: true, force: true });
  }
}

function canConnect(port) {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Starts nginx in the foreground on `config` (a complete nginx.conf) with a temporary prefix, and
 * resolves once every port in `ports` accepts connections. nginx's own messages go to `onOutput`
 * (default: this process's stderr). stop() ends it (SIGTERM: open sockets are closed, as a
 * restarting load balancer would) and removes the prefix.
 *
 * @param {{ config: string, ports: number[], nginx?: string, onOutput?: (text: string) => void }} options
 */
export async function startNginx(options) {
  const nginx = options.nginx ?? findNginx();
  if (!nginx) {
    throw new Error('nginx is not installed (`apt-get install nginx`)');
  }
  const prefix = makePrefix();
  const file = path.join(prefix, 'nginx.conf');
  fs.writeFileSync(file, options.config);
  const child = spawn(nginx, ['-p', prefix, '-c', file, '-g', globals(prefix)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const onOutput = options.onOutput ?? ((text) => process.stderr.write(text));
  for (const stream of [child.stdout, child.stderr]) {
    stream.setEncoding('utf8');
    stream.on('data', (text) => {
      output += text;
      onOutput(text);
    });
  }
  let exitCode = null;
  const exited = new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      exitCode = code ?? signal;
      resolve(exitCode);
    }),
  );
  const cleanup = () => fs.rmSync(prefix, { recursive: true, force: true });
  const stop = async () => {
    if (exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    cleanup();
  };
  const deadline = Date.now() + 10_000;
  for (;;) {
    if (exitCode !== null) {
      cleanup();
      throw new Error(`nginx exited (${exitCode}) while starting:\n${output.trim()}`);
    }
    const ready = await Promise.all(options.ports.map(canConnect));
    if (ready.every(Boolean)) {
      break;
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`nginx did not listen on ${options.ports.join(', ')} within 10 s:\n${output.trim()}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { prefix, configFile: file, pid: child.pid, exited, stop };
}
