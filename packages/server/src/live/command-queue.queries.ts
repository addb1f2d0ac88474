import crypto from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { AgentCommand, CommandStatus } from '@outpost/contract/agent-protocol';
import type { Db } from '../db/client';
import { deviceCommands } from '../db/schema/index';

// The command queue (ARCHITECTURE §4: the database is the queue, the bus is the doorbell).

type Writer = Pick<Db, 'insert'>;

export type QueueCommandInput = {
  tenantId: number;
  deviceId: number;
  command: AgentCommand;
  /** the user who asked, for the record */
  createdBy?: number | null;
  /** unfinished after this long, the command fails instead of being re-offered */
  expiresInMs?: number | null;
};

/** Inserts the command row, in the caller's transaction when given one. Returns its id. */
export async function insertCommand(tx: Writer, input: QueueCommandInput): Promise<string> {
  const id = crypto.randomUUID();
  await tx.insert(deviceCommands).values({
    id,
    tenantId: input.tenantId,
    deviceId: input.deviceId,
    kind: input.command.kind,
    payload: input.command,
    createdBy: input.createdBy ?? null,
    expiresAt: input.expiresInMs ? new Date(Date.now() + input.expiresInMs) : null,
  });
  return id;
}

export async function unfinishedCommands(db: Db, deviceId: number) {
  return db
    .select()
    .from(deviceCommands)
    .where(and(eq(deviceCommands.deviceId, deviceId), inArray(deviceCommands.status, ['pending', 'sent'])))
    .orderBy(asc(deviceCommands.createdAt));
}

/**
 * Of these devices, the ones with a command not yet offered to them (status pending): the
 * poll that delivers commands when the bus's doorbell was lost (issue 14). Uses the partial index
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
          inArray(deviceCommands.deviceId, deviceIds.slice(i, i + 5000)),
          inArray(deviceCommands.status, ['pending', 'sent']),
          eq(deviceCommands.status, 'pending'),
        ),
      );
    out.push(...rows.map((r) => r.deviceId));
  }
  return out;
}

export async function markSent(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) {
    return;
  }
  await db
    .update(deviceCommands)
    .set({ status: 'sent', sentAt: sql`now()` })
    .where(and(inArray(deviceCommands.id, ids), eq(deviceCommands.status, 'pending')));
}

/** Ends an unfinished command of this device; null when it was not (any more) unfinished. */
export async function completeCommand(
  db: Pick<Db, 'update'>,
  deviceId: number,
  commandId: string,
  outcome: {
    status: Extract<CommandStatus, 'completed' | 'failed'>;
    result: Record<string, unknown> | null;
    error: string | null;
  },
) {
  const [row] = await db
    .update(deviceCommands)
    .set({ ...outcome, completedAt: sql`now()` })
    .where(
      and(
        eq(deviceCommands.id, commandId),
        eq(deviceCommands.deviceId, deviceId),
        inArray(deviceCommands.status, ['pending', 'sent']),
      ),
    )
    .returning();
  return row ?? null;
}

export async function findCommand(db: Pick<Db, 'select'>, commandId: string) {
  const [row] = await db.select().from(deviceCommands).where(eq(deviceCommands.id, commandId)).limit(1);
  return row ?? null;
}
