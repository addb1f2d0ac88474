import type { FastifyBaseLogger } from 'fastify';
import type { ServerToAgentMessage } from '@outpost/contract/agent-protocol';
import type { Db } from '../db/client';
import type { Executor } from '../lib/db';
import { createGroupCommit } from '../lib/group-commit';
import { isUuid } from '../lib/uuid';
import type { AgentReports, CommandResultEvent, ProgressRefusal, StepProgressEvent } from './agent-reports';
import type { Bus } from './bus';
import {
  completeCommand,
  withdrawPendingCommands,
  completeCommands,
  devicesWithPendingCommands,
  findCommand,
  insertCommands,
  markSent,
  unfinishedCommandsOf,
} from './command-queue.queries';
import type { CommandEnd, QueueCommandInput } from './command-queue.queries';
import type { DeviceRef } from './device-state';

// The command queue (docs/product/agent-protocol.md#commands): the database is the queue, the bus is the doorbell. Services
// queue work for a device here and never talk to sockets; the instance holding the device's
// socket offers every unfinished command on the doorbell and again on each (re)connect.
// Offers and results that arrive together (a doorbell for a job's thousand devices, a reconnect
// storm, a thousand agents reporting) share their statements (lib/group-commit.ts).

export type { QueueCommandInput } from './command-queue.queries';

export type CommandOutcome = {
  commandId: string;
  status: 'completed' | 'failed' | 'timeout';
  result: Record<string, unknown> | null;
  error: string | null;
};

/** What the queue needs of a connected agent to offer it commands. */
export type CommandTarget = {
  readonly device: DeviceRef;
  /** commands already pushed on this socket; a new socket gets them again (re-offer) */
  readonly offered: Set<string>;
  send(message: ServerToAgentMessage): void;
};

export type CommandQueue = {
  /** Queue a command for a device and ring its doorbell (its own transaction). */
  sendCommand(input: QueueCommandInput): Promise<{ commandId: string }>;
  /**
   * Insert the command row in the caller's transaction (with its audit entry); call
   * dispatch(deviceId) after the commit.
   */
  queueCommand(tx: Pick<Db, 'execute'>, input: QueueCommandInput): Promise<string>;
  /** queueCommand for many commands at once (one statement per thousand); their ids, in order */
  queueCommands(tx: Pick<Db, 'execute'>, inputs: QueueCommandInput[]): Promise<string[]>;
  /** ring the doorbell of these devices (after the commit) */
  dispatch(deviceIds: readonly number[]): Promise<void>;
  /** Resolves when the command's result arrives on any instance, or with 'timeout'. */
  waitForResult(commandId: string, timeoutMs: number): Promise<CommandOutcome>;
  /**
   * Ends an unfinished command in the caller's transaction without running it (a cancelled or
   * expired deployment): it is no longer offered. The reports are not told.
   */
  finishCommand(
    tx: Executor,
    deviceId: number,
    commandId: string,
    outcome: { status: 'completed' | 'failed'; error: string | null },
  ): Promise<boolean>;
  /** finishCommand for many commands in one statement; answers, per end, whether it was unfinished. */
  finishCommands(
    tx: Executor,
    ends: { deviceId: number; commandId: string; status: 'completed' | 'failed'; error: string | null }[],
  ): Promise<boolean[]>;
  /**
   * Withdraws commands not yet offered to their devices, in the caller's transaction (a halted
   * rollout's wave, docs/product/rollouts.md#gates); answers the ids withdrawn.
   */
  withdrawCommands(tx: Pick<Db, 'execute'>, commandIds: readonly string[], error: string): Promise<string[]>;
  /** The stored state of a command (status, result, error), or null. */
  findCommand(commandId: string): Promise<Awaited<ReturnType<typeof findCommand>>>;
};

/** The side the agent socket uses: offer on connect, record a result, pass step progress on. */
export type CommandDelivery = {
  offer(target: CommandTarget): Promise<void>;
  /** 'unknown' for an id that is not an unfinished or finished command of this device */
  complete(
    device: DeviceRef,
    commandId: string,
    outcome: Pick<CommandResultEvent, 'status' | 'result' | 'error'>,
  ): Promise<'recorded' | 'duplicate' | 'unknown'>;
  /**
   * Hands step progress to the reports; rejects when they could not store it (the database is
   * away), so the message is not acknowledged and the agent resends it (progress carries a seq:
   * a message applied twice counts once). Answers the messages refused.
   */
  stepProgress(event: StepProgressEvent): Promise<ProgressRefusal[]>;
  /** Of these devices, those with commands never offered (for the poll behind the doorbell). */
  pendingFor(deviceIds: number[]): Promise<number[]>;
  close(): void;
};

const EXPIRED = 'The command expired before the device ran it';
/** How often a request waiting for a result also reads it from the database. */
const RESULT_POLL_MS = 1000;
/** device ids per doorbell message, and devices (or commands) per batched statement */
const BATCH_SIZE = 1000;

/**
 * Requests waiting for results: resolved by the bus when the result is recorded on any instance,
 * or read from the database (a poll, and at the timeout).
 */
function createResultWaiter(deps: { db: Db; bus: Bus; log: FastifyBaseLogger }) {
  const { db, bus, log } = deps;
  const waiters = new Map<string, Set<(o: CommandOutcome) => void>>();
  const unsubscribe = bus.subscribe('agent.result', (m) => {
    const set = waiters.get(m.commandId);
    if (set) {
      waiters.delete(m.commandId);
      for (const resolve of set) {
        resolve({ commandId: m.commandId, status: m.status, result: m.result, error: m.error });
      }
    }
  });

  function waitForResult(commandId: string, timeoutMs: number) {
    return new Promise<CommandOutcome>((resolve) => {
      let isDone = false;
      const finish = (o: CommandOutcome) => {
        if (isDone) {
          return;
        }
        isDone = true;
        clearTimeout(timer);
        clearInterval(poll);
        waiters.get(commandId)?.delete(finish);
        resolve(o);
      };
      const fromRow = async (fallback: CommandOutcome['status'] | null) => {
        const row = isUuid(commandId) ? await findCommand(db, commandId) : null;
        if (row && (row.status === 'completed' || row.status === 'failed')) {
          finish({ commandId, status: row.status, result: row.result, error: row.error });
        } else if (fallback) {
          finish({ commandId, status: fallback, result: null, error: null });
        }
      };
      const timer = setTimeout(() => {
        clearInterval(poll);
        fromRow('timeout').catch(() => finish({ commandId, status: 'timeout', result: null, error: null }));
      }, timeoutMs);
      // The result normally arrives on the bus; the database has it too, which is what counts
      // when the bus lost the message (Redis away while another instance recorded it).
      const poll = setInterval(() => {
        if (isDone) {
          clearInterval(poll);
          return;
        }
        fromRow(null).catch(() => undefined);
      }, RESULT_POLL_MS);
      poll.unref();
      let set = waiters.get(commandId);
      if (!set) {
        set = new Set();
        waiters.set(commandId, set);
      }
      set.add(finish);
      // The result may have arrived before we started waiting.
      fromRow(null).catch((err: unknown) => log.error({ err }, 'could not read a command'));
    });
  }

  return { waitForResult, close: unsubscribe };
}

/** CommandQueue.finishCommands: one statement per BATCH_SIZE commands. */
async function finishCommands(
  tx: Executor,
  ends: Parameters<CommandQueue['finishCommands']>[1],
): Promise<boolean[]> {
  const out: boolean[] = [];
  for (let i = 0; i < ends.length; i += BATCH_SIZE) {
    const rows = await completeCommands(
      tx,
      ends.slice(i, i + BATCH_SIZE).map((e) => ({ ...e, result: null })),
    );
    out.push(...rows.map((r) => r !== null));
  }
  return out;
}

export type CommandQueueDeps = {
  db: Db;
  bus: Bus;
  log: FastifyBaseLogger;
  /** where agents' results and step progress go (the deployment engine) */
  reports: AgentReports;
};

export function createCommandQueue(deps: CommandQueueDeps): CommandQueue & CommandDelivery {
  const { db, bus, log, reports } = deps;
  const results = createResultWaiter({ db, bus, log });

  async function dispatch(deviceIds: readonly number[]) {
    // The work is committed already: a doorbell that cannot ring (the bus is away) must not fail
    // the request; the instance holding the socket finds the command on its next poll.
    for (let i = 0; i < deviceIds.length; i += BATCH_SIZE) {
      const chunk = deviceIds.slice(i, i + BATCH_SIZE);
      await bus
        .publish('agent.doorbell', { deviceIds: chunk })
        .catch((err: unknown) =>
          log.warn(
            { err, devices: chunk.length },
            'doorbell not delivered; the poll will offer the commands',
          ),
        );
    }
  }

  const batched = { maxBatch: BATCH_SIZE, lanes: 2 };
  const unfinishedOf = createGroupCommit({
    ...batched,
    keyOf: (deviceId: number) => deviceId,
    apply: async (deviceIds) => {
      const byDevice = new Map(
        deviceIds.map((id) => [id, [] as Awaited<ReturnType<typeof unfinishedCommandsOf>>]),
      );
      for (const row of await unfinishedCommandsOf(db, deviceIds)) {
        byDevice.get(row.deviceId)?.push(row);
      }
      return deviceIds.map((id) => byDevice.get(id) ?? []);
    },
  });
  const markOneSent = createGroupCommit({
    ...batched,
    keyOf: (commandId: string) => commandId,
    apply: async (commandIds) => {
      await markSent(db, commandIds);
      return commandIds.map(() => undefined);
    },
  });
  const completeOne = createGroupCommit({
    ...batched,
    keyOf: (end: CommandEnd) => end.deviceId,
    apply: (ends) => completeCommands(db, ends),
  });

  async function offer(target: CommandTarget) {
    const rows = await unfinishedOf(target.device.id);
    const now = new Date();
    const sent: string[] = [];
    for (const row of rows) {
      if (row.expiresAt && row.expiresAt <= now) {
        const ended = await completeCommand(db, {
          deviceId: target.device.id,
          commandId: row.id,
          status: 'failed',
          result: null,
          error: EXPIRED,
        });
        if (ended) {
          await bus.publish('agent.result', {
            commandId: row.id,
            deviceId: target.device.id,
            kind: row.kind,
            status: 'failed',
            result: null,
            error: EXPIRED,
          });
        }
        continue;
      }
      if (target.offered.has(row.id)) {
        continue;
      }
      target.offered.add(row.id);
      target.send({
        type: 'command',
        commandId: row.id,
        issuedAt: row.createdAt.toISOString(),
        command: row.payload,
      });
      sent.push(row.id);
    }
    await Promise.all(sent.map((id) => markOneSent(id)));
  }

  async function complete(
    device: DeviceRef,
    commandId: string,
    outcome: Pick<CommandResultEvent, 'status' | 'result' | 'error'>,
  ): Promise<'recorded' | 'duplicate' | 'unknown'> {
    if (!isUuid(commandId)) {
      return 'unknown';
    }
    const row = await completeOne({ deviceId: device.id, commandId, ...outcome });
    if (!row) {
      // Already completed (a resend) is fine; a command of another device is never touched.
      const existing = await findCommand(db, commandId);
      return existing?.deviceId === device.id ? 'duplicate' : 'unknown';
    }
    await bus.publish('agent.result', { commandId: row.id, deviceId: device.id, kind: row.kind, ...outcome });
    try {
      await reports.commandResult({ device, commandId: row.id, kind: row.kind, ...outcome });
    } catch (err) {
      log.error({ err, commandId: row.id }, 'command result handler failed');
    }
    return 'recorded';
  }

  async function stepProgress(event: StepProgressEvent): Promise<ProgressRefusal[]> {
    try {
      return await reports.stepProgress(event);
    } catch (err) {
      // not acknowledged: the agent sends it again after its next reconnect
      throw err instanceof Error ? err : new Error('step progress handler failed', { cause: err });
    }
  }

  return {
    async sendCommand(input) {
      const [commandId] = await insertCommands(db, [input]);
      await dispatch([input.deviceId]);
      return { commandId: commandId! };
    },
    queueCommand: async (tx, input) => (await insertCommands(tx, [input]))[0]!,
    queueCommands: (tx, inputs) => insertCommands(tx, inputs),
    dispatch,
    waitForResult: (commandId, timeoutMs) => results.waitForResult(commandId, timeoutMs),
    async finishCommand(tx, deviceId, commandId, outcome) {
      const row = await completeCommand(tx, { deviceId, commandId, ...outcome, result: null });
      return row !== null;
    },
    finishCommands,
    withdrawCommands: (tx, commandIds, error) => withdrawPendingCommands(tx, commandIds, error),
    findCommand: (commandId) => (isUuid(commandId) ? findCommand(db, commandId) : Promise.resolve(null)),
    offer,
    complete,
    stepProgress,
    pendingFor: (deviceIds) =>
      deviceIds.length === 0 ? Promise.resolve([]) : devicesWithPendingCommands(db, deviceIds),
    close: () => results.close(),
  };
}
