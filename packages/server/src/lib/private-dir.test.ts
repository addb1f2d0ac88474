import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config';
import { InsecureDirError, ensurePrivateDir, preparePrivateDirs, tightenTree } from './private-dir';

const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-private-'));
  made.push(dir);
  return dir;
};
const mode = (p: string) => fs.lstatSync(p).mode & 0o777;

describe('private data folders', () => {
  // Setting returns the previous mask (reading it alone is deprecated).
  const umask = process.umask(0o022);
  process.umask(umask);
  afterEach(() => {
    process.umask(umask);
    for (const dir of made.splice(0)) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('creates a missing folder 0700, whatever the umask', () => {
    process.umask(0);
    const dir = path.join(tmp(), 'data', 'nested');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  it('refuses a folder the group or others can write to, naming it and the fix', () => {
    for (const open of [0o777, 0o770, 0o702]) {
      const dir = tmp();
      fs.chmodSync(dir, open);
      expect(() => ensurePrivateDir(dir, 'DATA_DIR')).toThrow(InsecureDirError);
      expect(() => ensurePrivateDir(dir, 'DATA_DIR')).toThrow(
        `DATA_DIR ${dir} is writable by other accounts`,
      );
      expect(() => ensurePrivateDir(dir, 'DATA_DIR')).toThrow(`chmod 700 '${dir}'`);
    }
  });

  it('tightens a readable folder and everything in it, leaving symbolic links alone', () => {
    const dir = tmp();
    fs.chmodSync(dir, 0o755);
    fs.mkdirSync(path.join(dir, 'pglite', 'base'), { recursive: true, mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'pglite', 'base', '1'), 'x', { mode: 0o666 });
    fs.writeFileSync(path.join(dir, 'session.key'), 'k', { mode: 0o644 });
    const outside = path.join(tmp(), 'elsewhere');
    fs.writeFileSync(outside, 'y', { mode: 0o644 });
    fs.symlinkSync(outside, path.join(dir, 'link'));
    fs.chmodSync(path.join(dir, 'pglite', 'base', '1'), 0o666);

    ensurePrivateDir(dir);
    tightenTree(dir);

    expect(mode(dir)).toBe(0o700);
    expect(mode(path.join(dir, 'pglite'))).toBe(0o700);
    expect(mode(path.join(dir, 'pglite', 'base'))).toBe(0o700);
    expect(mode(path.join(dir, 'pglite', 'base', '1'))).toBe(0o600);
    expect(mode(path.join(dir, 'session.key'))).toBe(0o600);
    expect(mode(outside)).toBe(0o644);
  });

  it('sets a private umask at start, so files created afterwards are 0600', () => {
    process.umask(0);
    const dataDir = tmp();
    preparePrivateDirs({ dataDir, blobDir: path.join(dataDir, 'blobs') });
    const file = path.join(dataDir, 'later');
    fs.writeFileSync(file, 'z');
    expect(mode(file)).toBe(0o600);
    expect(mode(path.join(dataDir, 'blobs'))).toBe(0o700);
  });

  it('refuses a shared BLOB_DIR outside DATA_DIR too', () => {
    const dataDir = tmp();
    const blobDir = tmp();
    fs.chmodSync(blobDir, 0o777);
    expect(() => preparePrivateDirs({ dataDir, blobDir })).toThrow(`BLOB_DIR ${blobDir} is writable`);
  });

  it('loadConfig refuses a world-writable DATA_DIR before writing the session key in it', () => {
    const dir = tmp();
    fs.chmodSync(dir, 0o777);
    expect(() => loadConfig({ DATA_DIR: dir })).toThrow(/DATA_DIR .* is writable by other accounts/);
    expect(fs.existsSync(path.join(dir, 'session.key'))).toBe(false);
  });
});
