import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The real entry points, run as the service would run them, with a permissive umask (as in the
// container where the embedded database came out world-writable).
const src = path.resolve(import.meta.dirname, '..');
const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-start-'));
  made.push(dir);
  return dir;
};

function run(entry: string, args: string[], env: Record<string, string>) {
  // `umask 0` makes the node process start with no mask, as a careless service manager would.
  const command = `umask 0 && exec "${process.execPath}" --import tsx "${path.join(src, entry)}" "$@"`;
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      'sh',
      ['-c', command, 'sh', ...args],
      { env: { ...process.env, DATABASE_URL: '', INIT_CWD: '', LOG_LEVEL: 'warn', ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function modesUnder(dir: string): string[] {
  const open: string[] = [];
  const pending = [dir];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    for (const entry of fs.readdirSync(current, { withFileTypes: true })) {
      const full = path.join(current, entry.name);
      if ((fs.lstatSync(full).mode & 0o077) !== 0) {
        open.push(`${full} ${(fs.lstatSync(full).mode & 0o777).toString(8)}`);
      }
      if (entry.isDirectory()) {
        pending.push(full);
      }
    }
  }
  return open;
}

describe('private DATA_DIR at start', () => {
  afterAll(() => {
    for (const dir of made) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('the server refuses to start when DATA_DIR is world-writable, and says why', async () => {
    const dataDir = tmp();
    fs.chmodSync(dataDir, 0o777);
    const result = await run('main.ts', [], { DATA_DIR: dataDir, PORT: '0', OUTPOST_DEMO: '0' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(`DATA_DIR ${dataDir} is writable by other accounts (mode 777)`);
    expect(result.stdout).not.toContain('Outpost is ready');
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });

  it('the embedded database and the session key are created private to the service user', async () => {
    const dataDir = path.join(tmp(), 'data');
    const result = await run('cli.ts', ['tenant:list'], { DATA_DIR: dataDir });
    expect(result.code).toBe(0);
    expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(true);
    expect(fs.statSync(dataDir).mode & 0o777).toBe(0o700);
    expect(modesUnder(dataDir)).toEqual([]);
  });
});
