import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import type { WebSocket } from 'ws';
import { AGENT_CAPABILITIES, HelloMessage } from '@outpost/contract/agent-protocol';
import type { AckedAgentMessage } from '@outpost/contract/agent-protocol';
import { AgentConnection } from './connection';
import { createMemoryOutbox } from './outbox';

// The agent's side of acknowledgements against a stand-in server over a real local websocket:
// its hello lists ack_lists, and it clears its outbox for an ack of one message (an older server)
// as for an ack listing several (a newer one).

let wss: WebSocketServer | null = null;
const connections: AgentConnection[] = [];

afterEach(async () => {
  await Promise.all(connections.splice(0).map((c) => c.stop()));
  await new Promise<void>((resolve) => (wss ? wss.close(() => resolve()) : resolve()));
  wss = null;
});

async function setUp(options: { localAddress?: string } = {}) {
  wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss!.once('listening', () => resolve()));
  const hellos: unknown[] = [];
  const received: AckedAgentMessage[] = [];
  const peers: (string | undefined)[] = [];
  let socket: WebSocket | null = null;
  wss.on('connection', (ws, req) => {
    peers.push(req.socket.remoteAddress);
    socket = ws;
    ws.on('message', (data: Buffer) => {
      const m = JSON.parse(data.toString('utf8')) as { type: string };
      if (m.type === 'hello') {
        hellos.push(m);
        ws.send(
          JSON.stringify({
            type: 'welcome',
            protocolVersion: 1,
            deviceGuid: 'd',
            heartbeatIntervalMs: 30_000,
            serverTime: new Date().toISOString(),
          }),
        );
        return;
      }
      received.push(m as AckedAgentMessage);
    });
  });
  const outbox = createMemoryOutbox();
  const connection = new AgentConnection({
    server: `http://127.0.0.1:${(wss.address() as AddressInfo).port}`,
    deviceGuid: 'd',
    agentSecret: 's',
    outbox,
    hello: () =>
      Promise.resolve({
        type: 'hello',
        protocolVersion: 1,
        agentVersion: 'test',
        hostname: 'pc',
        osType: 'linux',
        osVersion: '1',
        sessions: [],
      }),
    onCommand: () => undefined,
    ...options,
  });
  connections.push(connection);
  connection.start();
  await waitFor(() => connection.state === 'connected');
  const ack = (m: object) => socket!.send(JSON.stringify({ type: 'ack', ...m }));
  const error = (m: object) => socket!.send(JSON.stringify({ type: 'error', message: 'refused', ...m }));
  return { connection, outbox, hellos, received, ack, error, peers };
}

async function waitFor(check: () => boolean) {
  for (let i = 0; i < 500 && !check(); i++) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  expect(check()).toBe(true);
}

const progress = (id: string, seq: number): AckedAgentMessage => ({
  type: 'step_progress',
  messageId: id,
  commandId: 'c-1',
  seq,
  stepOrder: 1,
  status: 'running',
});

describe('agent acknowledgements', () => {
  it('lists ack_lists in its hello, a field an older server drops', async () => {
    const t = await setUp();
    expect(t.hellos[0]).toMatchObject({ capabilities: [AGENT_CAPABILITIES.ackLists] });
    // zod objects strip what they do not know: the same holds for a server without the field
    const older = HelloMessage.omit({ capabilities: true });
    expect(older.parse(t.hellos[0])).not.toHaveProperty('capabilities');
  });

  it('clears its outbox for one ack per message and for an ack listing several', async () => {
    const t = await setUp();
    for (const [i, id] of ['m-1', 'm-2', 'm-3', 'm-4'].entries()) {
      t.connection.sendReliable(progress(id, i + 1));
    }
    await waitFor(() => t.received.length === 4);
    t.ack({ messageId: 'm-1' });
    await waitFor(() => t.outbox.list().length === 3);
    t.ack({ messageId: 'm-2', messageIds: ['m-4'] });
    await waitFor(() => t.outbox.list().length === 1);
    expect(t.outbox.list().map((m) => m.messageId)).toEqual(['m-3']);
  });

  it('drops a message the server refused as invalid (resending the same bytes cannot help), and only that one', async () => {
    const t = await setUp();
    for (const [i, id] of ['m-1', 'm-2', 'm-3'].entries()) {
      t.connection.sendReliable(progress(id, i + 1));
    }
    await waitFor(() => t.received.length === 3);
    // no ack follows: an agent must not rely on one
    t.error({ code: 'invalid_message', messageId: 'm-2' });
    await waitFor(() => t.outbox.list().length === 2);
    // other errors (a transient internal error, an error without an id) keep the message for a resend
    t.error({ code: 'internal_error', messageId: 'm-1' });
    t.error({ code: 'invalid_message' });
    t.ack({ messageId: 'm-3' });
    await waitFor(() => t.outbox.list().length === 1);
    expect(t.outbox.list().map((m) => m.messageId)).toEqual(['m-1']);
  });

  it('binds the local address it is given (the simulator spreads a large fleet over 127.0.0.x)', async () => {
    const { peers } = await setUp({ localAddress: '127.0.0.3' });
    expect(peers).toEqual(['127.0.0.3']);
  });
});
