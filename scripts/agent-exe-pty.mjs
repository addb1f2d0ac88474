// The remote terminal's files in the single executable (scripts/build-agent-exe.mjs;
// docs/decisions/2026-11-27-remote-terminal.md): node-pty's scripts and the target platform's
// native files, embedded as SEA assets with a manifest, which the agent writes out as a small
// package tree and loads node-pty from (packages/agent/src/remote/pty-sea-package.ts).
//
// The platform's files come from @lydell/node-pty-<platform>, an optional dependency of which npm
// installs only the host's: another platform's is fetched with `npm pack` into
// node_modules/.cache/outpost-node and checked against the sha512 package-lock.json records for it.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'outpost-node');
const PTY_DIR = path.join(ROOT, 'node_modules', '@lydell', 'node-pty');

/** node-pty's name for a build platform (win-x64 → win32-x64). */
export function ptyPlatform(platform) {
  return platform.replace(/^win-/, 'win32-');
}

/**
 * The native files each platform's node-pty needs (never the .pdb debug symbols), and their modes
 * once extracted: macOS's spawn-helper is executed, the rest are loaded.
 */
export const PTY_NATIVE_FILES = {
  linux: { 'pty.node': 0o600 },
  darwin: { 'pty.node': 0o600, 'spawn-helper': 0o700 },
  win32: { 'conpty.node': 0o600, 'conpty_console_list.node': 0o600 },
};

/** node-pty's own files the agent needs: its scripts (worker/ and shared/ too) and package.json. */
function ptyScripts() {
  const files = ['package.json', 'LICENSE'];
  for (const dir of ['', 'worker', 'shared']) {
    for (const name of fs.readdirSync(path.join(PTY_DIR, dir))) {
      if (name.endsWith('.js')) {
        files.push(dir ? `${dir}/${name}` : name);
      }
    }
  }
  return files.sort();
}

function lockEntry(name) {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const entry = lock.packages?.[`node_modules/${name}`];
  if (!entry?.version || !entry.integrity) {
    throw new Error(`package-lock.json records no version and integrity for ${name}`);
  }
  return entry;
}

/** sha512-<base64>, the form of package-lock.json's integrity */
export function integrityOf(file) {
  return `sha512-${crypto.createHash('sha512').update(fs.readFileSync(file)).digest('base64')}`;
}

/**
 * The folder of the platform package: the installed one, else the registry tarball (cached, and
 * checked against the lockfile at every build) unpacked into `work`.
 */
function platformPackage(name, work, log) {
  const installed = path.join(ROOT, 'node_modules', ...name.split('/'));
  const { version, integrity } = lockEntry(name);
  if (fs.existsSync(path.join(installed, 'package.json'))) {
    return installed;
  }
  fs.mkdirSync(CACHE, { recursive: true });
  const tarball = path.join(CACHE, `${name.replace('@', '').replace('/', '-')}-${version}.tgz`);
  if (!fs.existsSync(tarball) || integrityOf(tarball) !== integrity) {
    log(`fetching ${name}@${version} from the npm registry`);
    // packed into a folder of this build's own, then renamed into the cache at once (two builds
    // at the same time never read each other's half-written tarball)
    const own = fs.mkdtempSync(path.join(CACHE, '.fetch-'));
    try {
      execFileSync('npm', ['pack', `${name}@${version}`, '--pack-destination', own, '--loglevel', 'warn'], {
        stdio: ['ignore', 'ignore', 'inherit'],
      });
      fs.renameSync(path.join(own, path.basename(tarball)), tarball);
    } finally {
      fs.rmSync(own, { recursive: true, force: true });
    }
  }
  const actual = integrityOf(tarball);
  if (actual !== integrity) {
    fs.rmSync(tarball, { force: true });
    throw new Error(`${name}@${version} from the registry is ${actual}, package-lock.json says ${integrity}`);
  }
  const dir = path.join(work, name.replace('/', '+'));
  fs.mkdirSync(dir, { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', dir, '--strip-components=1']);
  return dir;
}

/**
 * The SEA assets of the terminal for a build platform: `node-pty/manifest.json` (written into
 * `work`) listing every file with its mode, and each file as `node-pty/<path>`. Empty where
 * node-pty has no package for the platform.
 * @returns {Record<string, string>}
 */
export function ptyAssets(platform, work, log = () => undefined) {
  const os = ptyPlatform(platform).split('-')[0];
  const natives = PTY_NATIVE_FILES[os];
  if (!natives) {
    return {};
  }
  const name = `@lydell/node-pty-${ptyPlatform(platform)}`;
  const nativeDir = platformPackage(name, work, log);
  const files = [];
  for (const file of ptyScripts()) {
    files.push({
      path: `node_modules/@lydell/node-pty/${file}`,
      mode: 0o600,
      from: path.join(PTY_DIR, file),
    });
  }
  for (const [file, mode] of Object.entries({ 'package.json': 0o600, ...natives })) {
    const from = path.join(nativeDir, file);
    if (!fs.existsSync(from)) {
      throw new Error(`${name} has no ${file}`);
    }
    files.push({ path: `node_modules/${name}/${file}`, mode, from });
  }
  const manifest = path.join(work, 'pty-manifest.json');
  fs.writeFileSync(
    manifest,
    JSON.stringify({ files: files.map(({ path: p, mode }) => ({ path: p, mode })) }),
  );
  return {
    'node-pty/manifest.json': manifest,
    ...Object.fromEntries(files.map((f) => [`node-pty/${f.path}`, f.from])),
  };
}
