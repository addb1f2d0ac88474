import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startTestServer,
  createEnrollmentToken,
  eventually,
  TerminalClient,
} from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { createWinePrefix, wineUnavailableReason } from './wine-harness';
import type { WinePrefix, WineProcess } from './wine-harness';
import { portal } from '../support/portal';
import { buildWindowsAgent, installInPrefix } from './wine-support';

// The remote terminal of the Windows single executable under Wine 8 (docs/agent-windows.md):
// node-pty's ConPTY files are embedded, written to the agent's state folder and loaded from there
// (docs/decisions/2026-11-27-remote-terminal.md).

const unavailable = wineUnavailableReason();

describe.skipIf(unavailable !== null)('the Windows agent terminal under Wine', () => {
  let wine: WinePrefix;
  let server: TestServer;
  let admin: string;
  let device: ReturnType<typeof installInPrefix>;
  let agent: WineProcess | null = null;
  let deviceId = 0;

  beforeAll(async () => {
    wine = createWinePrefix();
    device = installInPrefix(wine, await buildWindowsAgent('1.0.0-wine', path.join(wine.dir, 'build')));
    server = await startTestServer();
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    const token = (await createEnrollmentToken(server, admin)).token;
    const enrolled = await wine.run(
      [device.winExe, 'enroll', '--server', server.url, '--token', token, '--no-external-ip'],
      { env: device.env },
    );
    expect(enrolled.stdout, enrolled.stderr).toContain('Enrolled');
    const { deviceGuid } = JSON.parse(fs.readFileSync(device.config, 'utf8')) as { deviceGuid: string };
    agent = wine.start([device.winExe, 'run'], { env: device.env });
    const api = portal(server, admin, 'windows');
    deviceId = (
      await eventually(async () => {
        const d = await api.device(deviceGuid);
        return d?.status === 'online' ? d : null;
      }, 60_000)
    ).id;
  }, 600_000);

  afterAll(async () => {
    agent?.child.kill('SIGKILL');
    await server?.close();
    wine?.close();
  });

  it('loads ConPTY from the extracted files and starts cmd in it; Wine 8 ends the shell at once', async () => {
    const term = await TerminalClient.open(server.url, deviceId, admin, {
      shell: 'cmd',
      cols: 100,
      rows: 30,
    });
    await term.until(
      () => term.frames.find((f) => f.type === 'started' || f.type === 'ended'),
      60_000,
      'started',
    );
    // conpty.node is loaded (not "not available in this agent build") and cmd.exe started in it
    expect(
      term.frames.find((f) => f.type === 'started'),
      JSON.stringify(term.frames),
    ).toMatchObject({
      shell: 'C:\\windows\\system32\\cmd.exe',
    });
    // the pseudo-console's first output (its title) came through node-pty's worker thread,
    // started from the extracted worker script
    await term.waitForText('\u001b]0;C:\\windows\\system32\\cmd.exe', 0, 60_000);
    // Wine 8's ConPTY: the shell attached to it exits at once with 0, none of its output reaching
    // the pseudo-console (docs/decisions/2026-11-27-remote-terminal.md); on Windows it runs
    expect(await term.waitForEnd(60_000)).toMatchObject({ reason: 'exited', exitCode: 0 });

    // the files, written under the agent's state folder; never the debug symbols
    const { stateDir } = JSON.parse(fs.readFileSync(device.config, 'utf8')) as { stateDir: string };
    const native = path.join(wine.driveC, ...stateDir.slice(3).split('\\'), 'native');
    const [digest] = fs.readdirSync(native);
    const tree = path.join(native, digest!, 'node_modules', '@lydell');
    expect(fs.readdirSync(path.join(tree, 'node-pty-win32-x64')).sort()).toEqual([
      'conpty.node',
      'conpty_console_list.node',
      'package.json',
    ]);
    expect(fs.existsSync(path.join(tree, 'node-pty', 'worker', 'conoutSocketWorker.js'))).toBe(true);
    expect(fs.existsSync(path.join(tree, 'node-pty', 'conpty_console_list_agent.js'))).toBe(true);
    // one agent: node-pty's console-list fork (which re-runs the executable) never starts another
    expect(agent!.output().match(/running for device/g)).toHaveLength(1);
  }, 180_000);
});
