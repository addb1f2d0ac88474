import { and, eq, inArray, isNotNull, lt, or } from 'drizzle-orm';
import type { TransferStatus } from '@outpost/contract/file-transfers';
import type { Executor, Reader } from '../../lib/db';
import { fileTransfers } from '../../db/schema';

// docs/product/remote-access.md#file-transfer: the one writer of file_transfers.

export type TransferRow = typeof fileTransfers.$inferSelect;
export type NewTransfer = typeof fileTransfers.$inferInsert;

export async function insertTransfer(tx: Executor, values: NewTransfer): Promise<TransferRow> {
  const [row] = await tx.insert(fileTransfers).values(values).returning();
  return row!;
}

export async function findTransfer(db: Reader, id: string): Promise<TransferRow | null> {
  const [row] = await db.select().from(fileTransfers).where(eq(fileTransfers.id, id));
  return row ?? null;
}

/**
 * Moves a transfer from one of `from` to its next state; null when it was no longer in one of
 * them (another instance, the sweep or a cancel got there first).
 */
export async function moveTransfer(
  tx: Executor,
  id: string,
  from: readonly TransferStatus[],
  set: Partial<Pick<TransferRow, 'status' | 'error' | 'size' | 'sha256' | 'blobKey' | 'endedAt'>>,
): Promise<TransferRow | null> {
  const [row] = await tx
    .update(fileTransfers)
    .set(set)
    .where(and(eq(fileTransfers.id, id), inArray(fileTransfers.status, [...from])))
    .returning();
  return row ?? null;
}

/** Records the stored bytes of a pending transfer (the agent's PUT or the browser's upload). */
export async function recordStored(
  tx: Executor,
  id: string,
  stored: { blobKey: string; size: number; sha256: string },
): Promise<TransferRow | null> {
  return moveTransfer(tx, id, ['pending'], stored);
}

/** Transfers whose bytes outlived the retention, or that never ended within it. */
export async function findExpired(db: Reader, before: Date): Promise<TransferRow[]> {
  return db
    .select()
    .from(fileTransfers)
    .where(
      and(
        lt(fileTransfers.createdAt, before),
        or(isNotNull(fileTransfers.blobKey), inArray(fileTransfers.status, ['pending', 'ready'])),
      ),
    )
    .limit(500);
}

/** Forgets a transfer's blob (after it was removed from the store). */
export async function clearBlob(tx: Executor, id: string): Promise<void> {
  await tx.update(fileTransfers).set({ blobKey: null }).where(eq(fileTransfers.id, id));
}
