import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';

const run = promisify(execFile);
const cli = path.join(import.meta.dirname, 'cli.ts');
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-cli-'));

// The CLI runs against the embedded database in a temporary DATA_DIR (a PostgreSQL run uses its own DB).
async function outpost(...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['--import', 'tsx', cli, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', INIT_CWD: '' },
    });
    return { code: 0, out: stdout };
  } catch (err) {
    const e = err as { code: number; stderr: string };
    return { code: e.code, out: e.stderr };
  }
}

describe('admin CLI', () => {
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('creates a tenant with its administrator, adds a user and lists them', async () => {
    const created = await outpost(
      'tenant:create',
      '--name',
      'Initech',
      '--admin-email',
      'bill@initech.example',
      '--max-agents',
      '50',
    );
    expect(created).toMatchObject({ code: 0 });
    expect(created.out).toContain('Created tenant 1 "Initech"');
    expect(
      (await outpost('user:add', '--tenant', '1', '--email', 'peter@initech.example', '--role', 'user')).code,
    ).toBe(0);
    const list = await outpost('tenant:list');
    expect(list.out).toMatch(/Initech\s+Standard\s+max agents 50\s+users 2/);
  }, 60_000);

  it('prints a one-time sign-in link (SECURITY.md R2-7)', async () => {
    const link = await outpost(
      'sign-in-link',
      '--email',
      'Bill@Initech.example',
      '--url',
      'https://outpost.example/',
    );
    expect(link.code).toBe(0);
    expect(link.out).toMatch(/^https:\/\/outpost\.example\/login#link=[A-Za-z0-9_-]{43}\n/);
    expect(link.out).toContain('for bill@initech.example');
    const bad = await outpost('sign-in-link', '--email', 'nope');
    expect(bad.code).toBe(1);
    expect(bad.out).toContain('--email must be an e-mail address');
  }, 60_000);

  it('explains bad arguments and exits non-zero', async () => {
    const missing = await outpost('tenant:create', '--admin-email', 'not-an-email');
    expect(missing.code).toBe(1);
    expect(missing.out).toContain('--name is required');
    expect(missing.out).toContain('--admin-email must be an e-mail address');
    const role = await outpost('user:add', '--tenant', '1', '--email', 'x@initech.example', '--role', 'boss');
    expect(role.out).toContain('--role must be user or tenant_admin');
    const unknown = await outpost('frobnicate');
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain('Unknown command "frobnicate"');
  }, 60_000);
});
