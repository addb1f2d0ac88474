import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { InsecureDirError, checkReleasesDir } from './dir-trust';
import { ensurePrivateDir } from './private-dir';

// The folder rules of dir-trust.ts (SECURITY.md R2-12). Another account is played by passing the
// service uid explicitly: a folder this process made then belongs to "someone else". Where the
// rule needs an owner that is neither root nor the service user, root hands the folder to nobody
// (65534) and any other user passes a uid of its own plus one.

const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-trust-'));
  made.push(dir);
  return dir;
};
const me = process.geteuid?.() ?? 0;
const otherUid = me + 1;

/** A folder owned by an account that is neither root nor the uid returned with it. */
function foreignFolder(mode: number): { dir: string; uid: number } {
  const dir = tmp();
  fs.chmodSync(dir, mode);
  if (me === 0) {
    fs.chownSync(dir, 65534, 65534);
    return { dir, uid: 0 };
  }
  return { dir, uid: otherUid };
}

afterEach(() => {
  for (const dir of made.splice(0)) {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});

describe('DATA_DIR and BLOB_DIR', () => {
  it('refuse a folder that belongs to another account, naming the chown', () => {
    const dir = tmp();
    fs.chmodSync(dir, 0o700);
    const check = () => ensurePrivateDir(dir, 'DATA_DIR', otherUid);
    expect(check).toThrow(InsecureDirError);
    expect(check).toThrow(
      `DATA_DIR ${dir} belongs to another account (uid ${me}, not the service user's ${otherUid})`,
    );
    expect(check).toThrow(`chown -R ${otherUid} '${dir}'`);
    // its own folder is fine
    expect(() => ensurePrivateDir(dir, 'DATA_DIR', me)).not.toThrow();
  });

  it('refuse a folder inside a parent others can write to, before creating anything', () => {
    for (const open of [0o777, 0o775, 0o757]) {
      const parent = tmp();
      fs.chmodSync(parent, open);
      const dir = path.join(parent, 'data');
      const check = () => ensurePrivateDir(dir, 'DATA_DIR', me);
      expect(check).toThrow(InsecureDirError);
      expect(check).toThrow(`DATA_DIR ${dir} is inside ${parent}, which other accounts can write to`);
      expect(check).toThrow(`chmod go-w '${parent}'`);
      expect(fs.existsSync(dir)).toBe(false);
    }
    // deeper: a world-writable grandparent is refused as well
    const grand = tmp();
    fs.chmodSync(grand, 0o777);
    fs.mkdirSync(path.join(grand, 'p'), { mode: 0o700 });
    expect(() => ensurePrivateDir(path.join(grand, 'p', 'data'), 'BLOB_DIR', me)).toThrow(
      `is inside ${grand}, which other accounts can write to (mode 777)`,
    );
  });

  it('accept a sticky parent that belongs to root or the service user (as /tmp), not one that belongs to another', () => {
    // os.tmpdir() is itself such a parent: every other test here relies on it
    const own = tmp();
    fs.chmodSync(own, 0o1777);
    expect(() => ensurePrivateDir(path.join(own, 'data'), 'DATA_DIR', me)).not.toThrow();
    const foreign = foreignFolder(0o1777);
    expect(() => ensurePrivateDir(path.join(foreign.dir, 'data'), 'DATA_DIR', foreign.uid)).toThrow(
      `is inside ${foreign.dir}, which other accounts can write to (mode 1777)`,
    );
  });

  it('stop loadConfig with a ConfigError', () => {
    const parent = tmp();
    fs.chmodSync(parent, 0o777);
    expect(() => loadConfig({ DATA_DIR: path.join(parent, 'data') })).toThrow(ConfigError);
  });
});

describe('AGENT_RELEASES_DIR', () => {
  const releases = () => {
    const dir = tmp();
    fs.chmodSync(dir, 0o755);
    fs.writeFileSync(path.join(dir, 'outpost-agent-linux'), 'ELF', { mode: 0o755 });
    fs.writeFileSync(path.join(dir, 'outpost-agent-linux.json'), '{}', { mode: 0o644 });
    return dir;
  };

  it('accepts a folder of the service user writable by it alone, and a missing one', () => {
    expect(() => checkReleasesDir(releases(), me)).not.toThrow();
    expect(() => checkReleasesDir(path.join(tmp(), 'missing'), me)).not.toThrow();
  });

  it('refuses a folder others can write to, naming the chmod', () => {
    for (const open of [0o777, 0o775, 0o757]) {
      const dir = releases();
      fs.chmodSync(dir, open);
      const check = () => checkReleasesDir(dir, me);
      expect(check).toThrow(InsecureDirError);
      expect(check).toThrow(`AGENT_RELEASES_DIR ${dir} is writable by other accounts`);
      expect(check).toThrow(`chmod go-w '${dir}'`);
    }
  });

  it('refuses an executable or sidecar others can write to, also behind a symbolic link', () => {
    const dir = releases();
    fs.chmodSync(path.join(dir, 'outpost-agent-linux'), 0o777);
    expect(() => checkReleasesDir(dir, me)).toThrow(
      `AGENT_RELEASES_DIR file ${path.join(dir, 'outpost-agent-linux')} is writable by other accounts`,
    );
    const linked = releases();
    const target = path.join(tmp(), 'writable.json');
    fs.writeFileSync(target, '{}');
    fs.chmodSync(target, 0o666);
    fs.rmSync(path.join(linked, 'outpost-agent-linux.json'));
    fs.symlinkSync(target, path.join(linked, 'outpost-agent-linux.json'));
    expect(() => checkReleasesDir(linked, me)).toThrow('is writable by other accounts (mode 666)');
  });

  it('refuses a folder that belongs to another account (root may own it)', () => {
    const foreign = foreignFolder(0o755);
    expect(() => checkReleasesDir(foreign.dir, foreign.uid)).toThrow(
      `AGENT_RELEASES_DIR ${foreign.dir} belongs to another account`,
    );
    if (me === 0) {
      // a root-owned folder serves a service running as another user
      expect(() => checkReleasesDir(releases(), 1234)).not.toThrow();
    }
  });

  it('stops loadConfig with a ConfigError', () => {
    const dir = releases();
    fs.chmodSync(dir, 0o777);
    expect(() => loadConfig({ DATA_DIR: tmp(), AGENT_RELEASES_DIR: dir })).toThrow(ConfigError);
  });
});
