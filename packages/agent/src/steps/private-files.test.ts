import { createHash } from 'node:crypto';
import { chmod, chown, lstat, mkdir, readFile, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  IntegrityError,
  UnsafePathError,
  agentUid,
  checkAncestors,
  ensurePrivateDir,
  preparePrivateFolders,
  writePrivateFile,
} from './private-files';
import { tempDir } from '../../test/support/steps';

// The folder and file rules of SECURITY.md "The agent's file-handling rules", on this machine's
// real file system.

const uid = agentUid();
const isRoot = uid === 0;
const OTHER_UID = 65534;
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => {
  ({ dir, cleanup } = await tempDir());
});
afterEach(() => cleanup());

/** A folder that belongs to another account: made so as root, else one root owns already. */
async function foreignFolder(): Promise<string> {
  if (isRoot) {
    const foreign = path.join(dir, 'foreign');
    await mkdir(foreign, { mode: 0o700 });
    await chown(foreign, OTHER_UID, OTHER_UID);
    return foreign;
  }
  return os.tmpdir();
}

describe('private folders', () => {
  it('creates a missing folder 0700 and accepts it again', async () => {
    const work = path.join(dir, 'work');
    await ensurePrivateDir(work, uid);
    expect((await lstat(work)).mode & 0o777).toBe(0o700);
    await ensurePrivateDir(work, uid);
  });

  it('refuses a symbolic link where the folder should be, and leaves its target alone', async () => {
    const target = path.join(dir, 'elsewhere');
    await mkdir(target);
    const work = path.join(dir, 'work');
    await symlink(target, work);
    await expect(ensurePrivateDir(work, uid)).rejects.toThrow(
      new UnsafePathError(
        `The agent's work folder ${work} is a symbolic link; refusing to use it. Remove it and the agent creates a private folder.`,
      ),
    );
    expect(await readdir(target)).toEqual([]);
  });

  it('refuses a dangling symbolic link too (mkdir never follows it)', async () => {
    const work = path.join(dir, 'work');
    await symlink(path.join(dir, 'not-there'), work);
    await expect(ensurePrivateDir(work, uid)).rejects.toThrow(/is a symbolic link/);
    await expect(stat(path.join(dir, 'not-there'))).rejects.toThrow();
  });

  it('refuses a folder that belongs to another account', async () => {
    const foreign = await foreignFolder();
    const owner = (await stat(foreign)).uid;
    await expect(ensurePrivateDir(foreign, uid)).rejects.toThrow(
      `The agent's work folder ${foreign} belongs to another account (uid ${owner}); refusing to use it.`,
    );
  });

  it('refuses a folder others can write to, and makes a merely readable one private', async () => {
    const open = path.join(dir, 'open');
    await mkdir(open);
    await chmod(open, 0o777);
    await expect(ensurePrivateDir(open, uid)).rejects.toThrow(/writable by other accounts \(mode 777\)/);
    const readable = path.join(dir, 'readable');
    await mkdir(readable);
    await chmod(readable, 0o755);
    await ensurePrivateDir(readable, uid);
    expect((await stat(readable)).mode & 0o777).toBe(0o700);
  });

  it('refuses a file where the folder should be', async () => {
    const file = path.join(dir, 'work');
    await writeFile(file, 'x');
    await expect(ensurePrivateDir(file, uid)).rejects.toThrow(/is not a folder/);
  });

  it('checks the folders above: sticky /tmp passes, a world-writable parent without the sticky bit does not', async () => {
    await checkAncestors(dir, uid);
    const shared = path.join(dir, 'shared');
    await mkdir(shared);
    await chmod(shared, 0o777);
    await expect(checkAncestors(shared, uid)).rejects.toThrow(
      `The folder ${shared} above the agent's work folder is writable by other accounts (mode 777)`,
    );
    await expect(preparePrivateFolders(path.join(shared, 'work'), [], uid)).rejects.toThrow(UnsafePathError);
    await chmod(shared, 0o1777);
    await checkAncestors(shared, uid);
  });

  it('refuses folders above that belong to another account', async () => {
    const foreign = await foreignFolder();
    if (isRoot) {
      await expect(checkAncestors(foreign, uid)).rejects.toThrow(/belongs to another account \(uid 65534\)/);
    } else {
      // as another account, the root-owned temp folder is accepted above, not as the work folder
      await checkAncestors(foreign, uid);
      await expect(ensurePrivateDir(foreign, uid)).rejects.toThrow(/belongs to another account/);
    }
  });

  it('creates and checks each folder inside the work folder, and refuses a link planted among them', async () => {
    const work = path.join(dir, 'state', 'work');
    const scratch = await preparePrivateFolders(work, ['deployment-1', 'step-1-attempt-1'], uid);
    expect(scratch).toBe(path.join(work, 'deployment-1', 'step-1-attempt-1'));
    for (const p of [work, path.join(work, 'deployment-1'), scratch]) {
      expect((await lstat(p)).mode & 0o777).toBe(0o700);
    }
    const target = path.join(dir, 'target');
    await mkdir(target);
    await symlink(target, path.join(work, 'deployment-2'));
    await expect(preparePrivateFolders(work, ['deployment-2', 'step-1-attempt-1'], uid)).rejects.toThrow(
      /is a symbolic link/,
    );
    expect(await readdir(target)).toEqual([]);
    await expect(preparePrivateFolders(work, ['..'], uid)).rejects.toThrow(UnsafePathError);
  });
});

describe('writing a file privately', () => {
  it('writes 0600, returns the hash of exactly the bytes written, and sets the execute bit through the descriptor', async () => {
    const body = (async function* () {
      await Promise.resolve(); // bytes arrive asynchronously, as from the network
      yield Buffer.from('#!/bin/sh\n');
      yield Buffer.from('echo hi\n');
    })();
    const written = await writePrivateFile(dir, 'run.sh', body, { isExecutable: true });
    expect(written).toEqual({
      path: path.join(dir, 'run.sh'),
      sha256: sha('#!/bin/sh\necho hi\n'),
      size: 18,
    });
    expect((await stat(written.path)).mode & 0o777).toBe(0o700);
    const plain = await writePrivateFile(dir, 'data.txt', 'data');
    expect((await stat(plain.path)).mode & 0o777).toBe(0o600);
  });

  it('refuses to write through a symbolic link or over an existing file, and the link target is untouched', async () => {
    const victim = path.join(dir, 'victim');
    await writeFile(victim, 'root only');
    await symlink(victim, path.join(dir, 'setup'));
    await expect(writePrivateFile(dir, 'setup', 'payload')).rejects.toThrow(/EEXIST/);
    await writeFile(path.join(dir, 'existing'), 'old');
    await expect(writePrivateFile(dir, 'existing', 'new')).rejects.toThrow(/EEXIST/);
    expect(await readFile(victim, 'utf8')).toBe('root only');
    expect(await readFile(path.join(dir, 'existing'), 'utf8')).toBe('old');
  });

  it('removes the file when the bytes do not match the expected hash, and says what they hash to', async () => {
    const err = await writePrivateFile(dir, 'setup', 'tampered', { expectedSha256: sha('genuine') }).catch(
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(IntegrityError);
    expect(err).toMatchObject({ actual: sha('tampered'), expected: sha('genuine') });
    expect(await readdir(dir)).toEqual([]);
    const ok = await writePrivateFile(dir, 'setup', 'genuine', {
      expectedSha256: sha('genuine').toUpperCase(),
    });
    expect(ok.sha256).toBe(sha('genuine'));
  });

  it('removes a half-written file when the transfer fails or is cancelled', async () => {
    const failing = (async function* () {
      await Promise.resolve(); // bytes arrive asynchronously, as from the network
      yield Buffer.from('half');
      throw new Error('connection reset');
    })();
    await expect(writePrivateFile(dir, 'a', failing)).rejects.toThrow('connection reset');
    const controller = new AbortController();
    const cancelled = (async function* () {
      await Promise.resolve(); // bytes arrive asynchronously, as from the network
      yield Buffer.from('half');
      controller.abort();
      yield Buffer.from('rest');
    })();
    await expect(writePrivateFile(dir, 'b', cancelled, { signal: controller.signal })).rejects.toThrow();
    expect(await readdir(dir)).toEqual([]);
  });

  it('takes a plain name only', async () => {
    await expect(writePrivateFile(dir, '../escape', 'x')).rejects.toThrow(UnsafePathError);
    await expect(writePrivateFile(dir, '..', 'x')).rejects.toThrow(UnsafePathError);
  });
});
