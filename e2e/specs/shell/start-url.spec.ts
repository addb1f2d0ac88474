import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const root = path.resolve(import.meta.dirname, '../../..');

// A new user runs `npm start` and opens the address it prints (README.md#two-commands). PORT=0
// lets the server pick a free port, so the printed URL can only be right if it is the real one.
test('the URL that npm start prints opens the sign-in screen', async ({ page }) => {
  test.setTimeout(120_000);
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-start-url-'));
  const child = spawn('npm', ['start'], {
    cwd: root,
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, OUTPOST_DEMO_DEVICES: '0' },
    stdio: ['ignore', 'pipe', 'pipe'],
    // its own process group, so that npm and the server it started both stop with the test
    detached: true,
  });
  let output = '';
  child.stderr.on('data', (d) => (output += String(d)));
  try {
    const printedUrl = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        output += String(d);
        const ready = /Outpost is ready at (\S+)/.exec(output);
        if (ready?.[1]) {
          resolve(ready[1]);
        }
      });
      child.once('exit', (code) =>
        reject(new Error(`npm start exited (${code}) before printing its URL:\n${output}`)),
      );
    });

    await page.goto(printedUrl);

    await expect(page.getByRole('heading', { name: 'Customer Portal' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Development sign-in' })).toBeVisible();
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    if (child.exitCode === null) {
      process.kill(-child.pid!, 'SIGTERM');
      await exited;
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});
