import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TerminalSessionView } from '@outpost/contract/terminal';
import { TerminalClient, eventually, startTestServer } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import type { Agent } from '@outpost/agent/agent';
import { REFUSED_TERMINAL } from '@outpost/agent/remote/remote-access';
import { startTerminalAgent } from './support/terminal-agent';

// docs/product/remote-access.md#terminal with the real agent from source on this machine: a real
// pseudo-terminal behind the browser's socket. `stty size` shows the size the browser sent and
// follows a resize, a full-screen program (vi) runs and quits, the shell exits, and the recording
// holds exactly the output the browser received.

type Envelope<T> = { success: boolean; data: T; error?: string };

describe('the remote terminal on the real agent', () => {
  let server: TestServer;
  let admin: string;
  let agent: Agent;
  let deviceId: number;

  beforeAll(async () => {
    server = await startTestServer();
    await server.seedDemo();
    admin = (await server.devSignIn('admin@acme.example')).token;
    ({ agent, deviceId } = await startTerminalAgent(server, admin, 'terminal-real'));
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await server?.close();
  });

  it('runs a shell in a real pseudo-terminal: size, resize, vi, exit, and records what the browser saw', async () => {
    const term = await TerminalClient.open(server.url, deviceId, admin, {
      shell: 'bash',
      cols: 100,
      rows: 30,
    });
    await term.until(() => term.frames.find((f) => f.type === 'started'), 15_000, 'started');

    let from = term.bytes.length;
    term.type('stty size\r');
    await term.waitForText('30 100', from);

    term.resize(120, 40);
    from = term.bytes.length;
    term.type('stty size\r');
    await term.waitForText('40 120', from);

    // a full-screen program: vi switches to the alternate screen and back when it quits
    from = term.bytes.length;
    term.type('vi\r');
    await term.waitForText('\x1b[?1049h', from);
    from = term.bytes.length;
    term.type('\x1b:q!\r');
    await term.waitForText('\x1b[?1049l', from);

    term.type('exit 0\r');
    const ended = await term.waitForEnd();
    expect(ended).toMatchObject({ reason: 'exited', exitCode: 0 });
    await term.closed;

    const session = await eventually(async () => {
      const list = await server.request<Envelope<TerminalSessionView[]>>(
        'GET',
        `/api/customer/terminal-sessions?device_id=${deviceId}`,
        { token: admin },
      );
      const s = list.body.data?.[0];
      return s?.ended_at ? s : null;
    });
    expect(session).toMatchObject({ device_id: deviceId, end_reason: 'exited', has_recording: true });
    expect(session.shell).toContain('bash');
    expect(session.bytes_out).toBe(term.bytes.length);

    const cast = await fetch(`${server.url}/api/customer/terminal-sessions/${session.id}/recording`, {
      headers: { authorization: `Bearer ${admin}` },
    });
    expect(cast.status).toBe(200);
    const lines = (await cast.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(lines[0]).toMatchObject({ version: 2, width: 100, height: 30, env: { TERM: 'xterm-256color' } });
    const events = lines.slice(1) as [number, string, string][];
    expect(events.filter((e) => e[1] === 'r').map((e) => e[2])).toEqual(['120x40']);
    const replayed = events
      .filter((e) => e[1] === 'o')
      .map((e) => e[2])
      .join('');
    expect(replayed).toBe(term.text);

    for (const action of ['Open Terminal', 'Close Terminal']) {
      const audit = await server.request<Envelope<{ data: Array<{ action: string; details: string }> }>>(
        'GET',
        `/api/customer/audit?action=${encodeURIComponent(action)}`,
        { token: admin },
      );
      expect(
        audit.body.data.data.map((l) => l.action),
        action,
      ).toContain(action);
    }
  }, 60_000);

  it('ends a session the browser closes, and the shell with it', async () => {
    const term = await TerminalClient.open(server.url, deviceId, admin, { shell: 'sh' });
    await term.until(() => term.frames.find((f) => f.type === 'started'), 15_000, 'started');
    term.close();
    expect((await term.waitForEnd()).reason).toBe('closed');
  });

  it('the agent refuses on its own when its policy turns the terminal off', async () => {
    // a policy the server has not yet corrected: the agent refuses whatever the server asks
    agent.remote!.onMessage({
      type: 'remote_policy',
      terminal: false,
      files: true,
      consent: false,
      banner: false,
    });
    const term = await TerminalClient.open(server.url, deviceId, admin);
    const ended = await term.waitForEnd();
    expect(ended).toMatchObject({ reason: 'refused', message: REFUSED_TERMINAL });
    agent.remote!.onMessage({
      type: 'remote_policy',
      terminal: true,
      files: true,
      consent: false,
      banner: false,
    });
  });
});
