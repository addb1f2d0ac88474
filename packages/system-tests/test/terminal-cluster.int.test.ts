import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, TerminalClient, startTestServer, throwawayDatabase } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import type { Agent } from '@outpost/agent/agent';
import { startTerminalAgent } from './support/terminal-agent';

// docs/product/remote-access.md#terminal across instances: the real agent's socket on instance
// one, the browser's on instance two, one PostgreSQL and one Redis (always real ones: two
// instances cannot share a PGlite). Keystrokes and output pass through Redis in order, and the
// session ends when the agent goes away.

describe('the remote terminal across two instances', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let one: TestServer;
  let two: TestServer;
  let agent: Agent | null = null;
  let deviceId: number;
  let admin: string;

  beforeAll(async () => {
    db = await throwawayDatabase();
    const env = {
      REDIS_URL,
      REDIS_CHANNEL_PREFIX: `outpost-test-${crypto.randomBytes(4).toString('hex')}:`,
    };
    one = await startTestServer({ databaseUrl: db.url, env });
    two = await startTestServer({ databaseUrl: db.url, env });
    await one.seedDemo();
    admin = (await two.devSignIn('admin@acme.example')).token;
    ({ agent, deviceId } = await startTerminalAgent(one, admin, 'terminal-cluster', two));
    expect(one.app.agentHub.isConnectedHere(deviceId)).toBe(true);
  }, 60_000);
  afterAll(async () => {
    await agent?.stop();
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('relays a real shell through Redis in order, and ends when the agent goes away', async () => {
    // wide enough that the typed line never wraps, whatever the prompt (user@host:folder) is here
    const term = await TerminalClient.open(two.url, deviceId, admin, { shell: 'bash', cols: 241, rows: 23 });
    await term.until(() => term.frames.find((f) => f.type === 'started'), 15_000, 'started');
    let from = term.bytes.length;
    term.type('stty size\r');
    await term.waitForText('23 241', from);

    // keystrokes one by one, answered in the order typed
    from = term.bytes.length;
    const words = Array.from({ length: 20 }, (_, i) => `w${i}`);
    for (const ch of `echo ${words.join(' ')}\r`) {
      term.type(ch);
    }
    // the line as echoed while typed, then the command's output: both whole, in order
    const line = `${words.join(' ')}\r\n`;
    const out = await term.waitForText(new RegExp(`echo ${line}[^]*${line}`), from);
    expect(out).toContain(`echo ${line}`);

    await agent!.stop();
    agent = null;
    const ended = await term.waitForEnd();
    expect(['device_offline', 'closed']).toContain(ended.reason);
  }, 60_000);
});
