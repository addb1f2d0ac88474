import crypto from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { getRawAsset, isSea } from 'node:sea';

// node-pty in the single executable (docs/decisions/2026-11-27-remote-terminal.md): a SEA's
// `require` reaches no file, and node-pty needs real files beside each other (its native module,
// macOS's spawn-helper, Windows' ConPTY worker script and the console-list script it forks). The
// build embeds them as SEA assets with a manifest (scripts/build-agent-exe.mjs `ptyAssets`); at
// the first session they are written as a small package tree to <stateDir>/native/<digest>/
// (folders 0700, files 0600, spawn-helper 0700), every file checked against its embedded copy
// on every load (a missing, changed or loosened one is written again; an earlier build's folder is
// removed), and node-pty is loaded from there with module.createRequire, so its __dirname,
// require.resolve and worker paths work.

/** The SEA asset listing the embedded files; each file is the asset `node-pty/<path>`. */
export const PTY_MANIFEST_ASSET = 'node-pty/manifest.json';

export interface PtyManifest {
  /** paths relative to the extracted root, with '/' separators, and their file modes */
  files: { path: string; mode: number }[];
}

/** Where the embedded files come from: the executable's assets, or a test's. */
export interface PtyAssetSource {
  manifest(): PtyManifest | null;
  read(file: string): Uint8Array;
}

const sha256 = (data: Uint8Array) => crypto.createHash('sha256').update(data).digest('hex');

const posixModes = process.platform !== 'win32';

function isPlainPath(file: string) {
  return file.split('/').every((part) => part !== '' && part !== '.' && part !== '..');
}

/** The executable's embedded files (null manifest: this build embedded no terminal). */
export function seaAssetSource(): PtyAssetSource {
  return {
    manifest() {
      if (!isSea()) {
        return null;
      }
      try {
        return JSON.parse(
          Buffer.from(getRawAsset(PTY_MANIFEST_ASSET) as ArrayBuffer).toString('utf8'),
        ) as PtyManifest;
      } catch {
        return null;
      }
    },
    read: (file) => new Uint8Array(getRawAsset(`node-pty/${file}`) as ArrayBuffer),
  };
}

function fileIsCurrent(target: string, digest: string, mode: number) {
  let stat: fs.Stats;
  try {
    stat = fs.lstatSync(target);
  } catch {
    return false;
  }
  if (!stat.isFile() || (posixModes && (stat.mode & 0o777) !== mode)) {
    return false;
  }
  return sha256(fs.readFileSync(target)) === digest;
}

function privateDir(dir: string) {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  fs.chmodSync(dir, 0o700);
}

/**
 * Writes the embedded package tree under <stateDir>/native/<digest>/ where a file is missing or
 * differs from its embedded copy, and returns that folder; null when nothing is embedded.
 */
export function extractPtyPackage(
  stateDir: string,
  source: PtyAssetSource = seaAssetSource(),
): string | null {
  const manifest = source.manifest();
  if (!manifest || manifest.files.length === 0) {
    return null;
  }
  const files = manifest.files.map((entry) => {
    if (!isPlainPath(entry.path)) {
      throw new Error(`the embedded terminal file ${entry.path} has no plain relative path`);
    }
    const data = source.read(entry.path);
    return { ...entry, data, digest: sha256(data) };
  });
  const treeDigest = sha256(
    Buffer.from(files.map((f) => `${f.path}\0${f.mode.toString(8)}\0${f.digest}\n`).join(''), 'utf8'),
  );
  const native = path.join(stateDir, 'native');
  const root = path.join(native, treeDigest.slice(0, 16));
  privateDir(native);
  privateDir(root);
  for (const file of files) {
    const target = path.join(root, ...file.path.split('/'));
    if (fileIsCurrent(target, file.digest, file.mode)) {
      continue;
    }
    let dir = root;
    for (const part of file.path.split('/').slice(0, -1)) {
      dir = path.join(dir, part);
      privateDir(dir);
    }
    const temp = `${target}.${process.pid}.tmp`;
    fs.rmSync(temp, { force: true });
    fs.writeFileSync(temp, file.data, { mode: file.mode });
    fs.chmodSync(temp, file.mode);
    fs.renameSync(temp, target);
    if (!fileIsCurrent(target, file.digest, file.mode)) {
      throw new Error(`the extracted ${file.path} does not match the embedded copy`);
    }
  }
  removeOtherBuilds(native, path.basename(root));
  return root;
}

/** Best effort: an earlier build's files, left by the agent this one updated. */
function removeOtherBuilds(native: string, current: string) {
  for (const entry of fs.readdirSync(native)) {
    if (entry !== current) {
      try {
        fs.rmSync(path.join(native, entry), { recursive: true, force: true });
      } catch {
        // still in use: the next load tries again
      }
    }
  }
}

/** node-pty loaded from the extracted tree, or null when this executable embeds none. */
export function requireSeaNodePty<T>(stateDir: string, source?: PtyAssetSource): T | null {
  const root = extractPtyPackage(stateDir, source);
  if (!root) {
    return null;
  }
  return createRequire(path.join(root, 'index.js'))('@lydell/node-pty') as T;
}
