import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { extractPtyPackage, requireSeaNodePty } from './pty-sea-package';
import type { PtyAssetSource, PtyManifest } from './pty-sea-package';

const posix = process.platform !== 'win32';
const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** the embedded files of a build: a tiny node-pty stand-in and a platform package */
function source(contents: Record<string, string>, modes: Record<string, number> = {}): PtyAssetSource {
  const manifest: PtyManifest = {
    files: Object.keys(contents).map((p) => ({ path: p, mode: modes[p] ?? 0o600 })),
  };
  return { manifest: () => manifest, read: (file) => new TextEncoder().encode(contents[file]) };
}

const FILES = {
  'node_modules/@lydell/node-pty/package.json': '{"name":"@lydell/node-pty","main":"./index.js"}',
  'node_modules/@lydell/node-pty/index.js':
    "exports.native = require('@lydell/node-pty-test/native.js'); exports.dir = __dirname;",
  'node_modules/@lydell/node-pty/worker/conoutSocketWorker.js': '// worker',
  'node_modules/@lydell/node-pty-test/native.js': "module.exports = 'native';",
  'node_modules/@lydell/node-pty-test/spawn-helper': '#!/bin/sh\n',
};
const MODES = { 'node_modules/@lydell/node-pty-test/spawn-helper': 0o700 };

describe('the embedded node-pty, extracted for the single executable', () => {
  const dirs: string[] = [];
  const stateDir = () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-pty-'));
    dirs.push(dir);
    return dir;
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('writes every file under native/<digest>/, folders 0700, files 0600 and spawn-helper 0700', () => {
    const state = stateDir();
    const root = extractPtyPackage(state, source(FILES, MODES))!;
    expect(path.dirname(root)).toBe(path.join(state, 'native'));
    expect(path.basename(root)).toMatch(/^[0-9a-f]{16}$/);
    for (const [file, text] of Object.entries(FILES)) {
      expect(fs.readFileSync(path.join(root, file), 'utf8')).toBe(text);
    }
    if (posix) {
      expect(mode(path.join(state, 'native'))).toBe(0o700);
      expect(mode(root)).toBe(0o700);
      expect(mode(path.join(root, 'node_modules/@lydell/node-pty/worker'))).toBe(0o700);
      expect(mode(path.join(root, 'node_modules/@lydell/node-pty/index.js'))).toBe(0o600);
      expect(mode(path.join(root, 'node_modules/@lydell/node-pty-test/spawn-helper'))).toBe(0o700);
    }
  });

  it('loads node-pty from the extracted tree, where its own requires and __dirname resolve', () => {
    const state = stateDir();
    const pty = requireSeaNodePty<{ native: string; dir: string }>(state, source(FILES, MODES))!;
    expect(pty.native).toBe('native');
    expect(pty.dir).toBe(
      path.join(extractPtyPackage(state, source(FILES, MODES))!, 'node_modules/@lydell/node-pty'),
    );
  });

  it('writes again a file that was changed, removed or loosened, and leaves intact ones alone', () => {
    const state = stateDir();
    const root = extractPtyPackage(state, source(FILES, MODES))!;
    const index = path.join(root, 'node_modules/@lydell/node-pty/index.js');
    const worker = path.join(root, 'node_modules/@lydell/node-pty/worker/conoutSocketWorker.js');
    const helper = path.join(root, 'node_modules/@lydell/node-pty-test/spawn-helper');
    const native = path.join(root, 'node_modules/@lydell/node-pty-test/native.js');
    fs.writeFileSync(index, 'tampered');
    fs.rmSync(worker);
    const before = fs.statSync(native).ino;
    if (posix) {
      fs.chmodSync(helper, 0o777);
    }
    expect(extractPtyPackage(state, source(FILES, MODES))).toBe(root);
    expect(fs.readFileSync(index, 'utf8')).toBe(FILES['node_modules/@lydell/node-pty/index.js']);
    expect(fs.readFileSync(worker, 'utf8')).toBe('// worker');
    expect(fs.statSync(native).ino).toBe(before);
    if (posix) {
      expect(mode(helper)).toBe(0o700);
    }
  });

  it("puts another build's files in another folder and removes the earlier build's", () => {
    const state = stateDir();
    const first = extractPtyPackage(state, source(FILES, MODES));
    const second = extractPtyPackage(
      state,
      source({ ...FILES, 'node_modules/@lydell/node-pty-test/native.js': 'x' }),
    );
    expect(second).not.toBe(first);
    expect(fs.readdirSync(path.join(state, 'native'))).toEqual([path.basename(second!)]);
  });

  it('is null where the build embedded nothing, and refuses a path leaving its folder', () => {
    const state = stateDir();
    expect(extractPtyPackage(state, { manifest: () => null, read: () => new Uint8Array() })).toBeNull();
    expect(requireSeaNodePty(state, { manifest: () => null, read: () => new Uint8Array() })).toBeNull();
    expect(() => extractPtyPackage(state, source({ '../escape.js': 'x' }))).toThrow(/plain relative path/);
    expect(fs.existsSync(path.join(state, 'escape.js'))).toBe(false);
  });
});
