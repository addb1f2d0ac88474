import { describe, expect, it } from 'vitest';
import type { WebSocket } from 'ws';
import { AGENT_CLOSE, AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import type {
  AgentMessage,
  ServerToAgentMessage,
  StepProgressMessage,
} from '@outpost/contract/agent-protocol';
import { AgentConnection, RUN_MAX_MESSAGES } from './agent-connection';
import type { HandledMessage, MessageLimits } from './agent-connection';

// The per-agent queue without a server: a recording socket and a handler the test releases.

function recordingSocket() {
  const sent: ServerToAgentMessage[] = [];
  const closes: number[] = [];
  const flow: ('pause' | 'resume')[] = [];
  const socket = {
    OPEN: 1,
    readyState: 1,
    send: (raw: string) => sent.push(JSON.parse(raw) as ServerToAgentMessage),
    close: (code: number) => closes.push(code),
    terminate: () => closes.push(1006),
    pause: () => flow.push('pause'),
    resume: () => flow.push('resume'),
  };
  // only the members AgentConnection uses are recorded
  return { socket: socket as unknown as WebSocket, sent, closes, flow };
}

function setUp(limits: Partial<MessageLimits> = {}) {
  const { socket, sent, closes, flow } = recordingSocket();
  // a clock the test moves: waiting for the message budget lets time pass at once
  let now = 0;
  const waits: number[] = [];
  const clock = {
    now: () => now,
    wait: (ms: number) => {
      waits.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
  const handled: HandledMessage[] = [];
  const gates: (() => void)[] = [];
  const conn = new AgentConnection(
    { id: 1, tenantId: 1, siteId: null, deviceGuid: '00000000-0000-4000-8000-000000000001' },
    socket,
    '127.0.0.1',
    { messagesPerSecond: 1000, messageBurst: 1000, queueLimit: 3, queueBytes: 1 << 20, ...limits },
    async (_conn, message) => {
      handled.push(message);
      await new Promise<void>((resolve) => gates.push(resolve));
    },
    () => undefined,
    clock,
  );
  const receive = (m: AgentMessage) => conn.receive(JSON.stringify(m), false);
  const settle = () => new Promise((r) => setImmediate(r));
  const releaseAll = async () => {
    await settle();
    while (gates.length > 0) {
      gates.shift()?.();
      await settle();
    }
  };
  return { conn, sent, closes, flow, waits, handled, receive, settle, releaseAll };
}

const hello: AgentMessage = {
  type: 'hello',
  protocolVersion: AGENT_PROTOCOL_VERSION,
  agentVersion: '1.0.0',
  hostname: 'pc',
  osType: 'windows',
  osVersion: '11',
  sessions: [],
};
const activity = (id: string): AgentMessage => ({
  type: 'activity',
  messageId: id,
  events: [{ eventType: 'login', userName: 'u', sessionId: id, timestamp: '2026-01-01T00:00:00Z' }],
});
const inventory = (
  id: string,
  parts: Partial<Extract<AgentMessage, { type: 'inventory' }>> = {},
): AgentMessage => ({
  type: 'inventory',
  messageId: id,
  collectedAt: '2026-01-01T00:00:00Z',
  software: [],
  ...parts,
});

describe('agent connection queue', () => {
  it('handles messages one at a time, in order', async () => {
    const t = setUp();
    t.receive(hello);
    t.receive({ type: 'heartbeat' });
    await t.settle();
    expect(t.handled.map((m) => m.type)).toEqual(['hello']);
    await t.releaseAll();
    expect(t.handled.map((m) => m.type)).toEqual(['hello', 'heartbeat']);
  });

  it('lets a newer inventory with the same parts replace a waiting one, and acknowledges the older', async () => {
    const t = setUp();
    t.receive(hello);
    t.receive(inventory('inv-1'));
    t.receive(inventory('inv-2'));
    t.receive(inventory('inv-3'));
    expect(t.sent).toEqual([
      { type: 'ack', messageId: 'inv-1' },
      { type: 'ack', messageId: 'inv-2' },
    ]);
    await t.releaseAll();
    expect(t.handled.map((m) => ('messageId' in m ? m.messageId : m.type))).toEqual(['hello', 'inv-3']);
  });

  it('does not let an inventory with fewer parts replace one with more', async () => {
    const t = setUp();
    t.receive(hello);
    t.receive(inventory('full', { services: [] }));
    t.receive(inventory('software-only'));
    await t.releaseAll();
    expect(t.handled.map((m) => ('messageId' in m ? m.messageId : m.type))).toEqual([
      'hello',
      'full',
      'software-only',
    ]);
  });

  it('stops reading at its bound and reads again once half of it is handled', async () => {
    const t = setUp({ queueLimit: 4 });
    t.receive(hello);
    await t.settle();
    for (let i = 0; i < 4; i++) {
      t.receive(activity(`a-${i}`));
    }
    expect(t.flow).toEqual(['pause']);
    expect(t.closes).toEqual([]);
    await t.releaseAll();
    expect(t.flow).toEqual(['pause', 'resume']);
    expect(t.handled).toHaveLength(5);
  });

  it('closes with 1008 when frames keep coming past twice its bytes, and drops what was queued', async () => {
    const t = setUp({ queueBytes: 400 });
    t.receive(hello);
    await t.settle();
    for (let i = 0; i < 10; i++) {
      t.receive(activity(`a-${i}`));
    }
    expect(t.closes).toEqual([AGENT_CLOSE.policyViolation]);
    expect(t.conn.queuedMessages).toBe(0);
    await t.releaseAll();
    expect(t.handled.map((m) => m.type)).toEqual(['hello']);
  });

  it('discards waiting messages when the socket closes, but still runs tasks queued after', async () => {
    const t = setUp();
    let ranTask = false;
    t.receive(hello);
    await t.settle();
    t.receive(activity('a-1'));
    t.conn.discardMessages();
    t.conn.enqueue(() => {
      ranTask = true;
      return Promise.resolve();
    });
    await t.releaseAll();
    expect(t.handled.map((m) => m.type)).toEqual(['hello']);
    expect(ranTask).toBe(true);
  });

  it('handles no more than its message rate: past the burst, each message waits for the budget', async () => {
    const t = setUp({ messagesPerSecond: 4, messageBurst: 2 });
    t.receive(hello);
    for (let i = 0; i < 3; i++) {
      t.receive(activity(`a-${i}`));
    }
    await t.releaseAll();
    expect(t.handled).toHaveLength(4);
    // two from the burst, then one per 250 ms for the other two
    expect(t.waits).toEqual([250, 250]);
    expect(t.closes).toEqual([]);
  });

  it("handles remote access's live traffic on its own budget: a terminal's output never waits for the general one", async () => {
    const t = setUp({ messagesPerSecond: 4, messageBurst: 2, queueLimit: 100 });
    t.receive(hello);
    t.receive(activity('a-0'));
    for (let seq = 1; seq <= 20; seq++) {
      t.receive({
        type: 'terminal_output',
        sessionId: '00000000-0000-4000-8000-0000000000aa',
        seq,
        data: 'aw==',
      });
    }
    t.receive(activity('a-1'));
    await t.releaseAll();
    expect(t.handled.map((m) => ('seq' in m ? m.seq : m.type))).toEqual([
      'hello',
      'activity',
      ...Array.from({ length: 20 }, (_, i) => i + 1),
      'activity',
    ]);
    // only the third general message waited for the general budget; the output waited for nothing
    expect(t.waits).toEqual([250]);
  });

  it('hands step_progress messages waiting one after another over as one run, in order', async () => {
    const t = setUp({ queueLimit: 100 });
    t.receive(hello);
    for (let seq = 1; seq <= 3; seq++) {
      t.receive(progress(seq));
    }
    t.receive(activity('a-1'));
    t.receive(progress(4));
    await t.releaseAll();
    expect(t.handled.map(describeHandled)).toEqual(['hello', 'run 1,2,3', 'activity', 'run 4']);
  });

  it('cuts a run at its length', async () => {
    const t = setUp({ queueLimit: 1000 });
    t.receive(hello);
    for (let seq = 1; seq <= RUN_MAX_MESSAGES + 1; seq++) {
      t.receive(progress(seq));
    }
    await t.releaseAll();
    const runs = t.handled.flatMap((m) => (m.type === 'progress_run' ? [m.messages.length] : []));
    expect(runs).toEqual([RUN_MAX_MESSAGES, 1]);
  });

  it('acknowledges several messages in one frame only when the hello listed ack_lists', async () => {
    const old = setUp();
    old.receive(hello);
    await old.settle();
    old.conn.ack(['m-1', 'm-2']);
    expect(old.sent).toEqual([
      { type: 'ack', messageId: 'm-1' },
      { type: 'ack', messageId: 'm-2' },
    ]);
    const t = setUp();
    t.receive({ ...hello, capabilities: ['something-newer', 'ack_lists'] });
    await t.settle();
    t.conn.ack(['m-1', 'm-2', 'm-3']);
    t.conn.ack(['m-4']);
    expect(t.sent).toEqual([
      { type: 'ack', messageId: 'm-1', messageIds: ['m-2', 'm-3'] },
      { type: 'ack', messageId: 'm-4' },
    ]);
  });
});

function progress(seq: number): StepProgressMessage {
  return {
    type: 'step_progress',
    messageId: `p-${seq}`,
    commandId: 'c-1',
    seq,
    stepOrder: 1,
    status: 'running',
  };
}

function describeHandled(m: HandledMessage): string {
  return m.type === 'progress_run' ? `run ${m.messages.map((p) => p.seq).join(',')}` : m.type;
}
