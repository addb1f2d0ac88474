import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// The real server entry point, started as the service would start it, on settings it must refuse:
// it exits 1 with a message that names the fix, before it listens or writes anything
// (SECURITY.md R2-8 and R2-12).
const main = path.resolve(import.meta.dirname, '..', 'main.ts');
const made: string[] = [];
const tmp = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-refuse-'));
  made.push(dir);
  return dir;
};
const isRoot = process.geteuid?.() === 0;

function start(env: Record<string, string>) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', main],
      {
        env: {
          ...process.env,
          DATABASE_URL: '',
          INIT_CWD: '',
          LOG_LEVEL: 'warn',
          PORT: '0',
          OUTPOST_DEMO: '0',
          ...env,
        },
        // a server that starts instead of refusing is stopped before the test's own timeout
        timeout: 25_000,
      },
      (err, stdout, stderr) => {
        const code = err ? (typeof err.code === 'number' ? err.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

async function expectRefused(env: Record<string, string>, ...parts: string[]) {
  const result = await start(env);
  expect(result.code).toBe(1);
  for (const part of parts) {
    expect(result.stderr).toContain(part);
  }
  expect(result.stdout).not.toContain('Outpost is ready');
}

describe('the server refuses to start', { timeout: 40_000 }, () => {
  afterAll(() => {
    for (const dir of made) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('on a DATA_DIR that belongs to another account, and writes no session key there', async () => {
    // root hands a fresh folder to nobody; another user finds the root-owned / belongs to root
    const dataDir = isRoot ? tmp() : '/';
    if (isRoot) {
      fs.chownSync(dataDir, 65534, 65534);
    }
    await expectRefused({ DATA_DIR: dataDir }, `DATA_DIR ${dataDir} belongs to another account`, 'chown -R');
    expect(fs.existsSync(path.join(dataDir, 'session.key'))).toBe(false);
  });

  it('on a DATA_DIR inside a world-writable parent without the sticky bit', async () => {
    const parent = tmp();
    fs.chmodSync(parent, 0o777);
    const dataDir = path.join(parent, 'data');
    await expectRefused(
      { DATA_DIR: dataDir },
      `DATA_DIR ${dataDir} is inside ${parent}, which other accounts can write to (mode 777)`,
      `chmod go-w '${parent}'`,
    );
    expect(fs.readdirSync(parent)).toEqual([]);
  });

  it('on a world-writable AGENT_RELEASES_DIR', async () => {
    const releases = tmp();
    fs.chmodSync(releases, 0o777);
    const dataDir = path.join(tmp(), 'data');
    await expectRefused(
      { DATA_DIR: dataDir, AGENT_RELEASES_DIR: releases },
      `AGENT_RELEASES_DIR ${releases} is writable by other accounts (mode 777)`,
      `chmod go-w '${releases}'`,
    );
  });

  it('with TRUST_PROXY as a hop count while listening beyond loopback', async () => {
    await expectRefused(
      { DATA_DIR: path.join(tmp(), 'data'), HOST: '0.0.0.0', TRUST_PROXY: '1' },
      'TRUST_PROXY: 1 is a hop count',
      'HOST=0.0.0.0 lets clients connect directly',
      'Name the proxies instead',
    );
  });
});
