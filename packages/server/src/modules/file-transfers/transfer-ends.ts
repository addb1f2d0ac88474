import type { FileStatusMessage } from '@outpost/contract/agent-protocol';
import { formatBytes } from '@outpost/contract/files';
import { fileTransferMessages as messages } from '@outpost/contract/file-transfers';
import type { TransferStatus } from '@outpost/contract/file-transfers';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { AuditActor } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import type { BlobStore } from '../files/blob-store';
import { clearBlob, findTransfer, moveTransfer } from './file-transfers.queries';
import type { TransferRow } from './file-transfers.queries';

// How a transfer ends (docs/product/remote-access.md#file-transfer): the agent's file_status
// decides, checked against what the server stored (size and sha256 both sides computed). Each end
// is audited with who asked, the device, the path, the size, the sha256 and the result; the
// temporary blob goes as soon as nobody needs it.

/** The person who started the transfer, as the audit names them. */
export function actorOf(row: TransferRow): AuditActor {
  return {
    tenantId: row.tenantId,
    userId: row.userId,
    name: row.userName,
    email: row.userEmail,
    role: (row.userRole as AuditActor['role']) ?? null,
    ip: row.userIp ?? '',
    userAgent: null,
  };
}

/** "Download of /etc/hosts (1.2 KB, sha256 ab12…): ready" */
export function describeTransfer(row: TransferRow, result: string): string {
  const what = row.direction === 'download' ? 'Download of' : 'Upload to';
  const size = row.size === null ? 'size unknown' : formatBytes(row.size);
  const hash = row.sha256 ? `, sha256 ${row.sha256}` : '';
  return `${what} ${row.path} (${size}${hash}): ${result}`;
}

export async function auditEnd(tx: Executor, row: TransferRow, result: string): Promise<void> {
  await writeAudit(tx, actorOf(row), {
    action: row.direction === 'download' ? 'File Download Ended' : 'File Upload Ended',
    resourceType: 'device',
    resourceId: row.deviceId,
    details: describeTransfer(row, result),
    newValues: { transfer_id: row.id, path: row.path, size: row.size, sha256: row.sha256, result },
    siteIds: [row.siteId],
  });
}

export function createTransferEnds(deps: { db: Db; blobStore: BlobStore }) {
  const { db, blobStore } = deps;

  async function dropBlob(row: Pick<TransferRow, 'id' | 'blobKey'>): Promise<void> {
    if (row.blobKey) {
      await blobStore.remove(row.blobKey);
      await clearBlob(db, row.id);
    }
  }

  /** Ends a transfer still in one of `from` as failed; false when it had already moved on. */
  async function fail(
    row: TransferRow,
    error: string,
    from: readonly TransferStatus[] = ['pending', 'ready'],
  ): Promise<boolean> {
    const ended = await db.transaction(async (tx) => {
      const moved = await moveTransfer(tx, row.id, from, { status: 'failed', error, endedAt: new Date() });
      if (moved) {
        await auditEnd(tx, moved, `failed: ${error}`);
      }
      return moved;
    });
    if (ended) {
      await dropBlob(ended);
    }
    return ended !== null;
  }

  /** The agent's word on a transfer of its device (every instance hears it; one acts). */
  async function onStatus(deviceId: number, message: FileStatusMessage): Promise<void> {
    const row = await findTransfer(db, message.transferId);
    if (!row || row.deviceId !== deviceId || row.status !== 'pending') {
      return;
    }
    if (!message.ok) {
      await fail(row, message.error || 'The device could not move the file', ['pending']);
      return;
    }
    if (row.blobKey === null || row.size === null) {
      await fail(row, 'The file did not reach the server', ['pending']);
      return;
    }
    if (message.size !== row.size) {
      await fail(row, messages.sizeMismatch, ['pending']);
      return;
    }
    if (message.sha256 !== row.sha256) {
      await fail(row, messages.checksumMismatch, ['pending']);
      return;
    }
    // a download's bytes wait for the browser; an upload is on the device: its bytes can go
    const next = row.direction === 'download' ? 'ready' : 'completed';
    const moved = await db.transaction(async (tx) => {
      const m = await moveTransfer(tx, row.id, ['pending'], {
        status: next,
        ...(next === 'completed' && { endedAt: new Date() }),
      });
      if (m) {
        await auditEnd(tx, m, next === 'ready' ? 'copied from the device' : 'written on the device');
      }
      return m;
    });
    if (moved && next === 'completed') {
      await dropBlob(moved);
    }
  }

  return { fail, onStatus, dropBlob };
}

export type TransferEnds = ReturnType<typeof createTransferEnds>;
