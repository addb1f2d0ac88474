import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AgentCommand, AgentCommandKind, CommandStatus } from '@outpost/contract/agent-protocol';
import type { Db } from '../db/client';
import { deviceCommands } from '../db/schema/index';
import { arrayParam, rowsOf } from '../lib/db';

// The command queue (docs/product/agent-protocol.md#commands: the database is the queue, the bus is the doorbell).

type Writer = Pick<Db, 'execute'>;

export type QueueCommandInput = {
  tenantId: number;
  deviceId: number;
  command: AgentCommand;
  /** the user who asked, for the record */
  createdBy?: number | null;
  /** unfinished after this long, the command fails instead of being re-offered */
  expiresInMs?: number | null;
};

/** Rows per insert statement (a job's thousand commands are one statement). */
const INSERT_CHUNK = 1000;

/**
 * Inserts the command rows, in the caller's transaction when given one, one statement per
 * thousand (a parameter per column, not per value: drizzle's multi-row insert built 7,000
 * parameters per job). Returns their ids, in order.
 */
export async function insertCommands(tx: Writer, inputs: QueueCommandInput[]): Promise<string[]> {
  const now = Date.now();
  const ids = inputs.map(() => crypto.randomUUID());
  for (let i = 0; i < inputs.length; i += INSERT_CHUNK) {
    const chunk = inputs.slice(i, i + INSERT_CHUNK);
    const column = <T>(pick: (input: QueueCommandInput, index: number) => T, type: string) =>
      arrayParam(
        chunk.map((input, j) => pick(input, i + j)),
        type,
      );
    await tx.execute(sql`
      insert into ${deviceCommands} (id, tenant_id, device_id, kind, payload, created_by, expires_at)
      select * from unnest(
        ${column((_, index) => ids[index], 'uuid')},
        ${column((input) => input.tenantId, 'int')},
        ${column((input) => input.deviceId, 'int')},
        ${column((input) => input.command.kind, 'text')},
        ${column((input) => JSON.stringify(input.command), 'jsonb')},
        ${column((input) => input.createdBy ?? null, 'int')},
        ${column((input) => (input.expiresInMs ? new Date(now + input.expiresInMs).toISOString() : null), 'timestamptz')}
      )`);
  }
  return ids;
}

/** The unfinished commands of these devices, oldest first. */
export async function unfinishedCommandsOf(db: Db, deviceIds: readonly number[]) {
  return db
    .select()
    .from(deviceCommands)
    .where(
      and(
        sql`${deviceCommands.deviceId} = any(${arrayParam(deviceIds, 'int')})`,
        inArray(deviceCommands.status, ['pending', 'sent']),
      ),
    )
    .orderBy(asc(deviceCommands.createdAt));
}

/**
 * Of these devices, the ones with a command not yet offered to them (status pending): the
 * poll that delivers commands when the bus's doorbell was lost. Uses the partial index
 * of unfinished commands.
 */
export async function devicesWithPendingCommands(db: Db, deviceIds: number[]): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < deviceIds.length; i += 5000) {
    const rows = await db
      .selectDistinct({ deviceId: deviceCommands.deviceId })
      .from(deviceCommands)
      .where(
        and(
          sql`${deviceCommands.deviceId} = any(${arrayParam(deviceIds.slice(i, i + 5000), 'int')})`,
          inArray(deviceCommands.status, ['pending', 'sent']),
          eq(deviceCommands.status, 'pending'),
        ),
      );
    out.push(...rows.map((r) => r.deviceId));
  }
  return out;
}

export async function markSent(db: Db, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) {
    return;
  }
  await db
    .update(deviceCommands)
    .set({ status: 'sent', sentAt: sql`now()` })
    .where(
      and(sql`${deviceCommands.id} = any(${arrayParam(ids, 'uuid')})`, eq(deviceCommands.status, 'pending')),
    );
}

export type CommandEnd = {
  deviceId: number;
  commandId: string;
  status: Extract<CommandStatus, 'completed' | 'failed'>;
  result: Record<string, unknown> | null;
  error: string | null;
};

/**
 * Ends unfinished commands, each only by its own device, in one statement (a command at most once
 * per call). Answers, per input, the ended command's kind, or null when it was not (any more)
 * unfinished.
 */
export async function completeCommands(
  db: Pick<Db, 'execute'>,
  ends: CommandEnd[],
): Promise<({ id: string; kind: AgentCommandKind } | null)[]> {
  const column = <T>(pick: (e: CommandEnd) => T, type: string) => arrayParam(ends.map(pick), type);
  const result = await db.execute(sql`
    update ${deviceCommands} c set status = v.status, result = v.result, error = v.error, completed_at = now()
    from unnest(
      ${column((e) => e.commandId, 'uuid')},
      ${column((e) => e.deviceId, 'int')},
      ${column((e) => e.status, 'text')},
      ${column((e) => (e.result === null ? null : JSON.stringify(e.result)), 'jsonb')},
      ${column((e) => e.error, 'text')}
    ) as v(id, device_id, status, result, error)
    where c.id = v.id and c.device_id = v.device_id and c.status in ('pending', 'sent')
    returning c.id, c.kind`);
  const ended = new Map(rowsOf<{ id: string; kind: AgentCommandKind }>(result).map((r) => [r.id, r]));
  return ends.map((e) => ended.get(e.commandId) ?? null);
}

/**
 * Withdraws commands not yet offered to their device (status pending): they end failed with this
 * error and are never offered. Answers the ids withdrawn (one offered meanwhile is left alone).
 */
export async function withdrawPendingCommands(
  db: Pick<Db, 'execute'>,
  ids: readonly string[],
  error: string,
): Promise<string[]> {
  if (ids.length === 0) {
    return [];
  }
  const result = await db.execute(sql`
    update ${deviceCommands} set status = 'failed', error = ${error}, completed_at = now()
    where id = any(${arrayParam(ids, 'uuid')}) and status = 'pending'
    returning id`);
  return rowsOf<{ id: string }>(result).map((r) => r.id);
}

/** Ends one unfinished command of this device; null when it was not (any more) unfinished. */
export async function completeCommand(db: Pick<Db, 'execute'>, end: CommandEnd) {
  const [row] = await completeCommands(db, [end]);
  return row ?? null;
}

export async function findCommand(db: Pick<Db, 'select'>, commandId: string) {
  const [row] = await db.select().from(deviceCommands).where(eq(deviceCommands.id, commandId)).limit(1);
  return row ?? null;
}
