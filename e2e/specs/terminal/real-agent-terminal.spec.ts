import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { signInAs } from '../../fixtures/auth';
import { DEMO_ADMIN, E2E_BASE_URL } from '../../fixtures/env';

// docs/product/remote-access.md#terminal on the real agent: this machine enrols the agent from
// source (`outpost-agent enroll`, then `run`, dry-run so it never acts on the machine), the
// device detail's Terminal tab opens its pseudo-terminal, a command typed in the browser runs in
// a real shell and its output comes back; then the recording of that session replays it.

const repoRoot = path.join(import.meta.dirname, '..', '..', '..');
type Envelope<T> = { success: true; data: T };

let agent: ChildProcess | null = null;
/** the enrolled device, removed after the test so no later spec picks it while it reads online */
let cleanup: (() => Promise<unknown>) | null = null;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-e2e-terminal-'));
test.afterEach(async () => {
  agent?.kill('SIGKILL');
  agent = null;
  await cleanup?.();
  cleanup = null;
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

test('opens a terminal on the real agent, runs a command in its shell, and replays it', async ({ page }) => {
  test.setTimeout(120_000);
  const session = await signInAs(page, DEMO_ADMIN);
  const auth = { authorization: `Bearer ${session.token}` };
  const enrolment = await page.request.post('/api/customer/agents/enrollment-tokens', {
    headers: auth,
    data: {},
  });
  expect(enrolment.status(), await enrolment.text()).toBe(200);
  const { token } = ((await enrolment.json()) as Envelope<{ token: string }>).data;

  const configFile = path.join(dir, 'agent.json');
  const env = { ...process.env, OUTPOST_AGENT_DRY_RUN: '1' };
  const cli = ['--import', 'tsx', path.join(repoRoot, 'packages/agent/src/main.ts')];
  const enrolled = spawnSync(
    process.execPath,
    [
      ...cli,
      'enroll',
      '--server',
      E2E_BASE_URL,
      '--token',
      token,
      '--config',
      configFile,
      '--no-external-ip',
    ],
    { cwd: repoRoot, env, encoding: 'utf8' },
  );
  expect(enrolled.status, enrolled.stderr).toBe(0);
  const { deviceGuid } = JSON.parse(fs.readFileSync(configFile, 'utf8')) as { deviceGuid: string };
  cleanup = () => page.request.delete(`/api/customer/devices/${deviceGuid}`, { headers: auth });
  agent = spawn(process.execPath, [...cli, 'run', '--config', configFile], {
    cwd: repoRoot,
    env,
    stdio: 'ignore',
  });

  await page.goto(`/devices/${deviceGuid}?tab=terminal`);
  await expect(page.getByRole('tab', { name: 'Terminal' })).toHaveAttribute('aria-selected', 'true');
  const connect = page.getByRole('button', { name: 'Connect' });
  const status = page.getByTestId('terminal-status');
  // the agent connects within seconds of starting; until then the server says it is not connected
  await expect(async () => {
    await connect.click();
    await expect(status).toHaveText(/Connected/, { timeout: 5_000 });
  }).toPass({ timeout: 60_000 });

  const screen = page.getByTestId('terminal-screen');
  await screen.click();
  // the shell computes it: the answer is not in what was typed
  await page.keyboard.type('echo "six times seven is $((6*7))"');
  await page.keyboard.press('Enter');
  const rows = screen.locator('.xterm-rows');
  await expect(rows).toContainText('six times seven is 42');

  await page.getByRole('button', { name: 'Disconnect' }).click();
  await expect(status).toHaveText(/Ended/);
  const sessions = page.getByRole('table', { name: 'Terminal sessions' });
  await sessions.getByRole('row').nth(1).getByRole('button', { name: 'Replay' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replay terminal session' });
  await expect(dialog.getByTestId('replay-screen')).toContainText('six times seven is 42', {
    timeout: 15_000,
  });
});
