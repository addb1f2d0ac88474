import type { Readable } from 'node:stream';
import type { ServerRemoteMessage } from '@outpost/contract/agent-protocol';
import { fileTransferMessages as messages } from '@outpost/contract/file-transfers';
import type { FileTransfer } from '@outpost/contract/file-transfers';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { conflict, notFound } from '../../lib/errors';
import type { BlobStore } from '../files/blob-store';
import type { RemoteAccessService } from '../remote-access/remote-access.service';
import { findTransfer, moveTransfer } from './file-transfers.queries';
import type { TransferRow } from './file-transfers.queries';
import { view } from './transfer-view';
import { describeTransfer } from './transfer-ends';
import type { TransferEnds } from './transfer-ends';

// Following a transfer from the browser (docs/product/remote-access.md#file-transfer): its state,
// a ready download's bytes (removed once sent), cancel. Only the person who started it sees it,
// and only while they may still move files on its device.

export function createTransferFollowing(deps: {
  db: Db;
  blobStore: BlobStore;
  ends: TransferEnds;
  remoteAccess: Pick<RemoteAccessService, 'authorize'>;
  toAgent: (deviceId: number, message: ServerRemoteMessage) => Promise<void>;
}) {
  const { db, blobStore, ends, remoteAccess, toAgent } = deps;

  /** a transfer the caller started, on a device they may still move files on */
  async function ownTransfer(ctx: RequestContext, id: string): Promise<TransferRow> {
    const row = await findTransfer(db, id);
    if (!row || row.tenantId !== ctx.tenantId || row.userId !== ctx.userId) {
      throw notFound(messages.transferNotFound, 'TRANSFER_NOT_FOUND');
    }
    await remoteAccess.authorize(ctx, 'files', row.deviceId);
    return row;
  }

  return {
    async get(ctx: RequestContext, id: string): Promise<FileTransfer> {
      return view(await ownTransfer(ctx, id));
    },

    /** GET /file-transfers/{id}/content: a ready download's bytes; once sent, they go */
    async openContent(
      ctx: RequestContext,
      id: string,
    ): Promise<{ transfer: FileTransfer; stream: Readable; finished: () => Promise<void> }> {
      const row = await ownTransfer(ctx, id);
      if (row.status !== 'ready' || !row.blobKey) {
        throw conflict(
          row.status === 'completed' ? messages.bytesGone : messages.notReady,
          'TRANSFER_NOT_READY',
        );
      }
      const stream = await blobStore.open(row.blobKey);
      return {
        transfer: view(row),
        stream,
        finished: async () => {
          const done = await moveTransfer(db, row.id, ['ready'], {
            status: 'completed',
            endedAt: new Date(),
          });
          if (done) {
            await ends.dropBlob(done);
          }
        },
      };
    },

    /** POST /file-transfers/{id}/cancel */
    async cancel(ctx: RequestContext, id: string): Promise<FileTransfer> {
      const row = await ownTransfer(ctx, id);
      const cancelled = await db.transaction(async (tx) => {
        const moved = await moveTransfer(tx, row.id, ['pending', 'ready'], {
          status: 'cancelled',
          error: messages.cancelled,
          endedAt: new Date(),
        });
        if (!moved) {
          throw conflict(messages.alreadyOver, 'TRANSFER_OVER');
        }
        await writeAudit(tx, ctx, {
          action: 'Cancel File Transfer',
          resourceType: 'device',
          resourceId: moved.deviceId,
          details: describeTransfer(moved, 'cancelled'),
          siteIds: [moved.siteId],
        });
        return moved;
      });
      await ends.dropBlob(cancelled);
      await toAgent(cancelled.deviceId, { type: 'file_cancel', transferId: cancelled.id });
      return view(cancelled);
    },
  };
}
