import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { and, eq, sql } from 'drizzle-orm';
import {
  AGENT_CLOSE,
  AGENT_PROTOCOL_VERSION,
  AgentMessage,
  SUPPORTED_AGENT_PROTOCOL_VERSIONS,
  refusedMessageId,
} from '@outpost/contract/agent-protocol';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import type { SignInResult } from '@outpost/contract/auth';
import {
  PORTAL_CLOSE,
  PORTAL_MAX_PENDING_MESSAGES,
  PortalClientMessage,
  deviceKey,
  parseSubscriptionKey,
} from '@outpost/contract/live';
import { WS_MAX_PAYLOAD_BYTES } from '@outpost/contract/limits';
import { messages } from '@outpost/contract/messages';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { devices, users } from '../db/schema/index';
import { MAX_INVALID_MESSAGES } from './agent-connection';
import {
  connectAgentSocket,
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  eventually,
  facts,
  hello,
  onlineAgent,
  portalAuth,
} from '../../test/support/live';
import type { AgentSocket, PortalSocket } from '../../test/support/live';

// Both websockets under generated hostile frames: invalid JSON, wrong types, unknown
// message types, binary frames, frames over the 1 MiB payload limit, messages out of order
// (an agent's heartbeat, result or step progress before its hello, results for commands that do
// not exist, the same result twice), floods. Each hostile socket must end with the close code
// the protocol defines, or get exactly the answers it defines (an `error` message per bad
// message), and never an internal error. Meanwhile a healthy agent and a healthy portal socket
// keep working: every run toggles the healthy agent's fault state (the portal socket must see
// the device_update) and sends the healthy agent a command (it must arrive and its result be
// recorded), while the hostile frames are being sent.

const RUNS = Number(process.env.SOCKET_FUZZ_RUNS || 40);

type Frame = { kind: 'text'; data: string } | { kind: 'binary'; data: Uint8Array } | { kind: 'huge' };

const text = (data: string): Frame => ({ kind: 'text', data });
const json = (value: unknown): Frame => text(JSON.stringify(value));

const isJson = (s: string) => {
  try {
    JSON.parse(s);
    return true;
  } catch {
    return false;
  }
};

/** Strings nasty to a parser, a database and a log line. */
const nastyString = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', '\u202e', '<script>', "'; drop table devices; --", ''),
  fc.constant('x'.repeat(70_000)),
);

const anyJsonValue = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  nastyString,
  fc.constantFrom(2 ** 53 + 2, -0, 1e308, 0.5, -1),
  // deep nesting: the input rules refuse it before any handler sees it
  fc.constant(JSON.parse('['.repeat(300) + ']'.repeat(300)) as unknown),
);

const invalidJsonFrame = fc
  .oneof(
    fc.string({ maxLength: 60 }),
    fc.constantFrom('{', '{"type":', '{"type":"hello"', 'undefined', "{'type':'ping'}", 'NaN', '\u0000'),
  )
  .filter((s) => !isJson(s))
  .map(text);

const binaryFrame = fc
  .oneof(fc.uint8Array({ maxLength: 64 }), fc.constant(new TextEncoder().encode('{"type":"ping"}')))
  .map((data): Frame => ({ kind: 'binary', data }));

const hugeFrame = fc.constant<Frame>({ kind: 'huge' });

/** A message of a known type with the wrong types, unknown keys or keys missing. */
function wrongShape(types: readonly string[], keys: readonly string[]) {
  return fc
    .record({
      type: fc.oneof(fc.constantFrom(...types), anyJsonValue),
      fields: fc.dictionary(
        fc.oneof(fc.constantFrom(...keys, '__proto__', 'constructor'), fc.string()),
        anyJsonValue,
        {
          maxKeys: 4,
        },
      ),
    })
    .map(({ type, fields }) => json({ ...fields, type }));
}

// ---------- agent frames ----------

const uuid = fc.uuid({ version: 4 });
const messageId = fc.oneof(uuid, fc.string({ minLength: 1, maxLength: 20 }));
const iso = fc.constant(new Date('2026-01-01T00:00:00Z').toISOString());

const validAgentMessage = fc.oneof(
  fc.record({
    type: fc.constant('hello'),
    protocolVersion: fc.oneof(fc.constant(AGENT_PROTOCOL_VERSION), fc.integer({ min: -5, max: 1000 })),
    agentVersion: fc.string({ maxLength: 64 }),
    hostname: fc.string({ minLength: 1, maxLength: 255 }),
    osType: fc.constantFrom('windows', 'linux', '<b>os</b>'),
    osVersion: fc.string({ maxLength: 40 }),
    sessions: fc.constant([]),
  }),
  fc.record({ type: fc.constant('heartbeat'), sentAt: iso }, { requiredKeys: ['type'] }),
  fc.record({ type: fc.constant('fault'), active: fc.boolean(), message: fc.string({ maxLength: 100 }) }),
  fc.record({
    type: fc.constant('inventory'),
    messageId,
    collectedAt: iso,
    facts: fc.record({ hostname: fc.string({ minLength: 1, maxLength: 255 }) }),
  }),
  fc.record({
    type: fc.constant('activity'),
    messageId,
    events: fc.array(
      fc.record({
        eventType: fc.constantFrom('login', 'logout'),
        userName: fc.string({ minLength: 1, maxLength: 30 }),
        sessionId: fc.string({ minLength: 1, maxLength: 20 }),
        timestamp: iso,
      }),
      { minLength: 1, maxLength: 3 },
    ),
  }),
  // a result or step progress for a command that does not exist (unknown to the server)
  fc.record({
    type: fc.constant('command_result'),
    messageId,
    commandId: fc.oneof(uuid, fc.string({ minLength: 1, maxLength: 40 })),
    status: fc.constantFrom('completed', 'failed'),
    result: fc.option(fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 })),
  }),
  fc.record({
    type: fc.constant('step_progress'),
    messageId,
    commandId: fc.oneof(uuid, fc.string({ minLength: 1, maxLength: 40 })),
    seq: fc.integer({ min: 1, max: 5 }),
    stepOrder: fc.integer({ min: 1, max: 5 }),
    status: fc.constantFrom('running', 'completed', 'failed', 'cancelled'),
    stdout: fc.string({ maxLength: 50 }),
  }),
);

const agentFrame: fc.Arbitrary<Frame[]> = fc.oneof(
  { weight: 6, arbitrary: validAgentMessage.map((m) => [json(m)]) },
  // the same message twice (a duplicate result, a resent step progress)
  { weight: 2, arbitrary: validAgentMessage.map((m) => [json(m), json(m)]) },
  { weight: 2, arbitrary: invalidJsonFrame.map((f) => [f]) },
  {
    weight: 3,
    arbitrary: wrongShape(
      [
        'hello',
        'heartbeat',
        'inventory',
        'activity',
        'fault',
        'command_result',
        'step_progress',
        'ack',
        'welcome',
      ],
      ['messageId', 'commandId', 'protocolVersion', 'hostname', 'events', 'status', 'seq', 'active'],
    ).map((f) => [f]),
  },
  { weight: 1, arbitrary: binaryFrame.map((f) => [f]) },
  { weight: 1, arbitrary: hugeFrame.map((f) => [f]) },
  // a flood of garbage: the invalid-message budget closes the socket
  {
    weight: 1,
    arbitrary: fc.integer({ min: 5, max: 30 }).map((n) => Array.from({ length: n }, () => text('{'))),
  },
);

/** A script: whether it starts with a proper hello, then the generated frames. */
const agentScript = fc.record({
  startsWithHello: fc.boolean(),
  frames: fc.array(agentFrame, { maxLength: 8 }).map((a) => a.flat()),
});

const ACKED = new Set(['inventory', 'activity', 'command_result', 'step_progress']);

type AgentExpectation = {
  /** close codes the socket may end with; empty: it must stay open */
  closeCodes: number[];
  /** when it stays open: the error codes it gets (counted) and the number of acks */
  errors: Record<string, number>;
  acks: number;
  welcomed: boolean;
  /** frames up to the one that closes the socket on arrival; later ones would race the close */
  frames: Frame[];
};

/**
 * What the protocol says an agent socket does with these frames. Frames that are not a message
 * (binary, not JSON, failing the schema) are answered with `invalid_message` as they arrive (and
 * acknowledged when they carry a recognisable messageId), and the tenth closes with 4400; a frame
 * over the payload limit is closed with 1009 by the ws library as it arrives. Messages are handled
 * in order after that: anything but a hello before the hello gets `hello_required` and 4400; a
 * hello with an unsupported version 4426. When an eager close (on arrival) and a queued one are
 * both possible, either may win the race, so both count.
 */
function expectAgent(frames: Frame[]): AgentExpectation {
  let invalid = 0;
  let hasHello = false;
  let eager: number | null = null;
  let queued: number | null = null;
  const errors: Record<string, number> = {};
  let acks = 0;
  let welcomed = false;
  const error = (code: string) => (errors[code] = (errors[code] ?? 0) + 1);
  let sent = 0;
  for (const f of frames) {
    sent += 1;
    if (f.kind === 'huge') {
      eager = 1009;
      break;
    }
    const parsed = f.kind === 'text' && isJson(f.data) ? AgentMessage.safeParse(JSON.parse(f.data)) : null;
    if (!parsed?.success) {
      invalid += 1;
      error('invalid_message');
      // one carrying a recognisable messageId is acknowledged too, so the agent drops it
      if (f.kind === 'text' && isJson(f.data) && refusedMessageId(JSON.parse(f.data)) !== null) {
        acks += 1;
      }
      if (invalid >= MAX_INVALID_MESSAGES) {
        eager = AGENT_CLOSE.protocolError;
        break;
      }
      continue;
    }
    if (queued !== null) {
      continue; // handled after the close (or not at all): no answer is certain
    }
    const m = parsed.data;
    if (m.type === 'hello') {
      if (!SUPPORTED_AGENT_PROTOCOL_VERSIONS.includes(m.protocolVersion)) {
        queued = AGENT_CLOSE.unsupportedVersion;
      } else if (!hasHello) {
        hasHello = true;
        welcomed = true;
      }
      continue;
    }
    if (!hasHello) {
      error('hello_required');
      queued = AGENT_CLOSE.protocolError;
      continue;
    }
    if (m.type === 'command_result') {
      error('unknown_command');
    }
    if (ACKED.has(m.type)) {
      acks += 1;
    }
  }
  const closeCodes = [eager, queued].filter((c): c is number => c !== null);
  return { closeCodes, errors, acks, welcomed, frames: frames.slice(0, sent) };
}

// ---------- portal frames ----------

const portalScriptFrame = (healthyKey: string): fc.Arbitrary<Frame[]> =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant<Frame[]>([json({ type: 'ping' })]) },
    {
      weight: 4,
      arbitrary: fc
        .record({
          type: fc.constantFrom('subscribe', 'unsubscribe'),
          subscriptionKey: fc.oneof(
            fc.constant(healthyKey),
            fc.constant(healthyKey.toUpperCase().replace('DEVICE:', 'device:')),
            uuid.map((g) => deviceKey(g)),
            fc.integer({ min: 1_000_000_000, max: 2 ** 31 - 1 }).map((n) => `deployment:${n}`),
            fc.integer({ min: 2 ** 31 - 2, max: 2 ** 31 + 2 }).map((n) => `deployment:${n}`),
            fc.integer({ min: 1, max: 2 ** 31 }).map((n) => `deployment:${n + 9_000_000_000}`),
            fc.constantFrom('deployment:0', 'deployment:-1', 'device:', 'device:../x', ':', 'tenant:1'),
            fc.string({ minLength: 1, maxLength: 60 }),
          ),
        })
        .map(({ type, subscriptionKey }) => [json({ type, payload: { subscriptionKey } })]),
    },
    { weight: 2, arbitrary: invalidJsonFrame.map((f) => [f]) },
    {
      weight: 3,
      arbitrary: wrongShape(['ping', 'subscribe', 'unsubscribe', 'pong', 'device_update'], ['payload']).map(
        (f) => [f],
      ),
    },
    { weight: 1, arbitrary: binaryFrame.map((f) => [f]) },
    { weight: 1, arbitrary: hugeFrame.map((f) => [f]) },
  );

/**
 * What the portal socket answers, in order (one control message per frame: error, pong,
 * subscribed or unsubscribed), or the close code. A frame over the payload limit is closed with
 * 1009; everything else is answered, and a binary frame is an invalid message.
 */
function expectPortal(
  frames: Frame[],
  healthyKey: string,
): { close: number | null; answers: string[]; frames: Frame[] } {
  const answers: string[] = [];
  for (const [i, f] of frames.entries()) {
    if (f.kind === 'huge') {
      return { close: 1009, answers, frames: frames.slice(0, i + 1) };
    }
    const parsed =
      f.kind === 'text' && isJson(f.data) ? PortalClientMessage.safeParse(JSON.parse(f.data)) : null;
    if (!parsed?.success) {
      answers.push('error:invalid_message');
      continue;
    }
    const m = parsed.data;
    if (m.type === 'ping') {
      answers.push('pong');
    } else if (m.type === 'unsubscribe') {
      answers.push('unsubscribed');
    } else {
      // the oracle: the contract's key syntax; only the healthy device is this caller's to follow
      const key = parseSubscriptionKey(m.payload.subscriptionKey);
      if (!key) {
        answers.push('error:invalid_subscription_key');
      } else if (key.kind === 'device' && deviceKey(key.deviceGuid) === healthyKey) {
        answers.push('subscribed');
      } else {
        answers.push('error:subscription_denied');
      }
    }
  }
  return { close: null, answers, frames };
}

const CONTROL = new Set(['error', 'pong', 'subscribed', 'unsubscribed']);

function sendFrame(ws: AgentSocket['ws'], f: Frame) {
  if (f.kind === 'huge') {
    ws.send('x'.repeat(WS_MAX_PAYLOAD_BYTES + 1));
  } else if (f.kind === 'binary') {
    ws.send(f.data, { binary: true });
  } else {
    ws.send(f.data);
  }
}

describe(
  'websocket fuzzing: hostile frames are refused, healthy connections are not harmed',
  { timeout: 180_000 },
  () => {
    let server: TestServer;
    let admin: SignInResult;
    let healthy: EnrollResult;
    let healthyId: number;
    let hostile: EnrollResult;
    let healthyAgent: AgentSocket;
    let healthyPortal: PortalSocket;
    let isFaulted = false;

    beforeAll(async () => {
      server = await startTestServer({
        // the hostile agent's sockets come and go; a short grace keeps presence work small
        env: { AGENT_PRESENCE_GRACE_MS: '200', AGENT_MESSAGES_PER_SECOND: '500', AGENT_MESSAGE_BURST: '500' },
      });
      await server.seedDemo();
      admin = await server.devSignIn('admin@acme.example');
      const t = await createEnrollmentToken(server, admin.token);
      healthy = (await enroll(server, t.token, facts({ hostname: 'healthy-pc' }))).body.data;
      hostile = (await enroll(server, t.token, facts({ hostname: 'hostile-pc' }))).body.data;
      const [row] = await server.database.db
        .select({ id: devices.id })
        .from(devices)
        .where(and(eq(devices.tenantId, admin.user.tenant_id), eq(devices.deviceGuid, healthy.device_guid)));
      healthyId = row!.id;
      healthyAgent = await onlineAgent(server.url, healthy);
      // the healthy agent runs every command it gets
      healthyAgent.ws.on('message', (data: Buffer) => {
        const m = JSON.parse(data.toString('utf8')) as { type: string; commandId?: string };
        if (m.type === 'command' && m.commandId) {
          healthyAgent.send({
            type: 'command_result',
            messageId: `r-${m.commandId}`,
            commandId: m.commandId,
            status: 'completed',
            result: { ok: true },
          });
        }
      });
      healthyPortal = connectPortalSocket(server.url, portalAuth(admin));
      await healthyPortal.waitFor('connection_status');
      healthyPortal.send({ type: 'subscribe', payload: { subscriptionKey: deviceKey(healthy.device_guid) } });
      await healthyPortal.waitFor('subscribed');
    });
    afterAll(async () => {
      await healthyAgent?.close();
      await healthyPortal?.close();
      await server?.close();
    });

    /** The healthy pair still works: a status change reaches the portal, a command the agent. */
    async function healthyRoundTrip() {
      isFaulted = !isFaulted;
      const from = healthyPortal.received.length;
      healthyAgent.send({ type: 'fault', active: isFaulted, message: 'fuzz toggle' });
      const status = isFaulted ? 'error' : 'online';
      const update = healthyPortal.waitFor(
        'device_update',
        (m) => m.payload.deviceId === healthy.device_guid && m.payload.status === status,
        15_000,
        from,
      );
      const { commandId } = await server.app.commandQueue.sendCommand({
        tenantId: admin.user.tenant_id,
        deviceId: healthyId,
        command: { kind: 'refresh_inventory', inventoryKind: 'all' },
      });
      const outcome = await server.app.commandQueue.waitForResult(commandId, 15_000);
      expect(outcome.status).toBe('completed');
      await update;
    }

    async function checkHealthy() {
      expect(healthyAgent.closeCode).toBeNull();
      expect(healthyPortal.closeCode).toBeNull();
      await healthyRoundTrip();
    }

    it('an agent socket answers or closes hostile frames as the protocol defines', async () => {
      let runs = 0;
      const seen = new Map<string, number>();
      await fc.assert(
        fc.asyncProperty(agentScript, async ({ startsWithHello, frames }) => {
          runs += 1;
          const script: Frame[] = startsWithHello
            ? [json(hello({ hostname: 'hostile-pc' })), ...frames]
            : frames;
          const expected = expectAgent(script);
          const socket = connectAgentSocket(server.url, hostile.device_guid, hostile.agent_secret);
          await socket.opened;
          const healthyCheck = healthyRoundTrip();
          for (const f of script) {
            if (socket.closeCode !== null) {
              break;
            }
            sendFrame(socket.ws, f);
          }
          if (expected.closeCodes.length === 0) {
            // Everything before it has been handled once the answer to one more message arrives.
            const flushId = `flush-${crypto.randomUUID()}`;
            socket.send({
              type: 'command_result',
              messageId: flushId,
              commandId: flushId,
              status: 'completed',
            });
            if (expected.welcomed) {
              await socket.waitFor('ack', (m) => m.messageId === flushId);
              expected.errors.unknown_command = (expected.errors.unknown_command ?? 0) + 1;
              expected.acks += 1;
              const errors: Record<string, number> = {};
              for (const e of socket.ofType('error')) {
                errors[e.code] = (errors[e.code] ?? 0) + 1;
              }
              expect(errors).toEqual(expected.errors);
              expect(socket.ofType('ack')).toHaveLength(expected.acks);
              expect(socket.ofType('welcome')).toHaveLength(1);
              await socket.close();
            } else {
              // no hello yet: the flush itself is out of order
              expect((await socket.waitForClose()).code).toBe(AGENT_CLOSE.protocolError);
              expect(socket.ofType('error').at(-1)?.code).toBe('hello_required');
            }
            seen.set('open', (seen.get('open') ?? 0) + 1);
          } else {
            const { code } = await socket.waitForClose();
            expect(expected.closeCodes).toContain(code);
            seen.set(String(code), (seen.get(String(code)) ?? 0) + 1);
          }
          // never an internal error, only the protocol's own error codes
          for (const e of socket.ofType('error')) {
            expect(['invalid_message', 'hello_required', 'unknown_command']).toContain(e.code);
          }
          await healthyCheck;
          await checkHealthy();
        }),
        { numRuns: RUNS },
      );
      expect(runs).toBe(RUNS);
      // the generator reached the interesting endings (a smoke check of the fuzzer itself)
      expect([...seen.keys()].sort()).toEqual(
        expect.arrayContaining(['1009', String(AGENT_CLOSE.protocolError), 'open']),
      );
    });

    it('a portal socket answers every hostile frame in order, or closes an oversized one with 1009', async () => {
      const healthyKey = deviceKey(healthy.device_guid);
      const script = fc.array(portalScriptFrame(healthyKey), { maxLength: 10 }).map((a) => a.flat());
      await fc.assert(
        fc.asyncProperty(script, async (frames) => {
          const expected = expectPortal(frames, healthyKey);
          const socket = connectPortalSocket(server.url, portalAuth(admin));
          await socket.waitFor('connection_status');
          const healthyCheck = healthyRoundTrip();
          for (const f of frames) {
            sendFrame(socket.ws, f);
          }
          if (expected.close !== null) {
            expect((await socket.waitForClose()).code).toBe(expected.close);
          } else {
            socket.send({ type: 'ping', payload: { flush: true } });
            const pongs = expected.answers.filter((a) => a === 'pong').length + 1;
            await socket.waitFor('pong', () => socket.ofType('pong').length === pongs);
            const answers = socket.received
              .filter((m) => CONTROL.has(m.type))
              .map((m) => (m.type === 'error' ? `error:${m.payload.code}` : m.type));
            expect(answers).toEqual([...expected.answers, 'pong']);
            expect(socket.ofType('error').map((e) => e.payload.message)).not.toContain(
              messages.internalError,
            );
            await socket.close();
          }
          await healthyCheck;
          await checkHealthy();
        }),
        { numRuns: RUNS },
      );
    });

    it('a portal socket flooding messages faster than they are handled is closed with 1008', async () => {
      const socket = connectPortalSocket(server.url, portalAuth(admin));
      await socket.waitFor('connection_status');
      // Every ping re-reads the caller's membership. Holding that table makes sure the flood arrives
      // while the server cannot answer: on PGlite with a remembered token a ping needs no I/O at all
      // and is answered between two frames of any burst, so without this the bound is never reached.
      let release = () => {};
      const held = new Promise<void>((taken) => {
        void server.database.db
          .transaction(async (tx) => {
            await tx.execute(sql`lock table ${users} in access exclusive mode`);
            taken();
            await new Promise<void>((r) => (release = r));
          })
          .catch(() => undefined);
      });
      await held;
      const healthyCheck = healthyRoundTrip();
      const ping = JSON.stringify({ type: 'ping' });
      const flood = PORTAL_MAX_PENDING_MESSAGES + 500;
      for (let i = 0; i < flood && socket.closeCode === null; i++) {
        socket.ws.send(ping);
      }
      try {
        expect(await socket.waitForClose(30_000)).toMatchObject({ code: PORTAL_CLOSE.policyViolation });
      } finally {
        release();
      }
      // cut off before its whole backlog was answered
      expect(socket.ofType('pong').length).toBeLessThan(flood);
      await healthyCheck;
      await checkHealthy();
    });

    it('an agent flooding garbage is closed after ten invalid messages; a flood of valid ones is slowed, not cut off', async () => {
      const garbage = connectAgentSocket(server.url, hostile.device_guid, hostile.agent_secret);
      await garbage.opened;
      garbage.send(hello({ hostname: 'hostile-pc' }));
      await garbage.waitFor('welcome');
      for (let i = 0; i < 1000; i++) {
        garbage.ws.send('not json');
      }
      expect(await garbage.waitForClose()).toMatchObject({ code: AGENT_CLOSE.protocolError });
      expect(garbage.ofType('error').length).toBeLessThanOrEqual(MAX_INVALID_MESSAGES);

      const busy = connectAgentSocket(server.url, hostile.device_guid, hostile.agent_secret);
      await busy.opened;
      busy.send(hello({ hostname: 'hostile-pc' }));
      await busy.waitFor('welcome');
      const healthyCheck = healthyRoundTrip();
      for (let i = 0; i < 300; i++) {
        busy.send({ type: 'command_result', messageId: `m-${i}`, commandId: `c-${i}`, status: 'failed' });
      }
      await busy.waitFor('ack', () => busy.ofType('ack').length === 300, 60_000);
      expect(busy.closeCode).toBeNull();
      expect(busy.ofType('error').every((e) => e.code === 'unknown_command')).toBe(true);
      await healthyCheck;
      await busy.close();
      await checkHealthy();
    });

    it('an agent reconnecting while its previous hello is being recorded keeps the newer connection', async () => {
      // Found by the fuzzer: the replaced connection's hello, finishing late, announced itself and
      // closed the newer connection as replaced (4409), and could leave its own id on the device
      // row, so the device never went offline after the newer one left.
      for (let i = 0; i < 20; i++) {
        // the older one says hello and drops at once: its hello is still being recorded when
        // the newer one connects and says hello
        const older = connectAgentSocket(server.url, hostile.device_guid, hostile.agent_secret);
        await older.opened;
        older.send(hello({ hostname: 'hostile-pc' }));
        older.ws.terminate();
        const newer = connectAgentSocket(server.url, hostile.device_guid, hostile.agent_secret);
        await newer.opened;
        newer.send(hello({ hostname: 'hostile-pc' }));
        await newer.waitFor('welcome');
        const flushId = `flush-${i}`;
        newer.send({ type: 'command_result', messageId: flushId, commandId: flushId, status: 'completed' });
        await newer.waitFor('ack', (m) => m.messageId === flushId);
        expect(newer.closeCode).toBeNull();
        await newer.close();
        await eventually(async () => {
          const [row] = await server.database.db
            .select({ status: devices.status })
            .from(devices)
            .where(eq(devices.deviceGuid, hostile.device_guid));
          return row?.status === 'offline';
        });
      }
      await checkHealthy();
    });
  },
);
