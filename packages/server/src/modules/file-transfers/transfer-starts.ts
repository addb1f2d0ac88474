import crypto from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ServerRemoteMessage } from '@outpost/contract/agent-protocol';
import { fileTransferMessages as messages } from '@outpost/contract/file-transfers';
import type { FileTransfer } from '@outpost/contract/file-transfers';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { RequestContext } from '../../lib/context';
import { badRequest, conflict } from '../../lib/errors';
import type { BlobStore } from '../files/blob-store';
import type { RemoteAccessService, RemoteTarget } from '../remote-access/remote-access.service';
import { insertTransfer } from './file-transfers.queries';
import { checkDeclaredLength, storeLimited } from './transfer-bytes';
import { describeTransfer } from './transfer-ends';
import { view } from './transfer-view';

// Starting a transfer (docs/product/remote-access.md#file-transfer): a download asks the agent to
// send the file; an upload stores the browser's bytes first (hashed, bounded by the tenant's
// largest file), then asks the agent to fetch them. Both are audited when they start and end.

export function createTransferStarts(deps: {
  db: Db;
  blobStore: BlobStore;
  remoteAccess: Pick<RemoteAccessService, 'authorize'>;
  toAgent: (deviceId: number, message: ServerRemoteMessage) => Promise<void>;
}) {
  const { db, blobStore, remoteAccess, toAgent } = deps;

  /** the device, allowed and connected */
  async function reach(ctx: RequestContext, deviceId: number): Promise<RemoteTarget> {
    const target = await remoteAccess.authorize(ctx, 'files', deviceId);
    if (target.device.status === 'offline') {
      throw conflict(messages.deviceOffline, 'DEVICE_OFFLINE');
    }
    return target;
  }

  const newRow = (ctx: RequestContext, target: RemoteTarget) => ({
    id: crypto.randomUUID(),
    tenantId: ctx.tenantId,
    deviceId: target.device.id,
    siteId: target.device.siteId,
    userId: ctx.userId,
    userName: ctx.name,
    userEmail: ctx.email,
    userRole: ctx.role,
    userIp: ctx.ip,
    maxBytes: target.settings.max_file_bytes,
    status: 'pending' as const,
  });

  return {
    reach,
    /** POST /devices/{id}/files/download: the agent is asked to send the file */
    async startDownload(ctx: RequestContext, deviceId: number, filePath: string): Promise<FileTransfer> {
      const target = await reach(ctx, deviceId);
      const row = await db.transaction(async (tx) => {
        const r = await insertTransfer(tx, { ...newRow(ctx, target), direction: 'download', path: filePath });
        await writeAudit(tx, ctx, {
          action: 'Download File From Device',
          resourceType: 'device',
          resourceId: target.device.id,
          details: `${filePath} from ${target.device.hostname ?? target.device.deviceGuid}`,
          newValues: { transfer_id: r.id, path: filePath },
          siteIds: [target.device.siteId],
        });
        return r;
      });
      await toAgent(row.deviceId, {
        type: 'file_send',
        transferId: row.id,
        path: filePath,
        maxBytes: row.maxBytes,
      });
      return view(row);
    },

    /** POST /devices/{id}/files/upload: the body is stored, then the agent is asked to fetch it */
    async upload(
      ctx: RequestContext,
      deviceId: number,
      input: {
        path: string | undefined;
        overwrite: boolean;
        /** the request's body, once access is decided */
        body: () => Readable;
        declaredLength: string | undefined;
      },
    ): Promise<FileTransfer> {
      const target = await reach(ctx, deviceId);
      const filePath = input.path?.trim();
      if (!filePath) {
        throw badRequest(messages.pathMissing, 'PATH_MISSING');
      }
      const body = input.body();
      const maxBytes = target.settings.max_file_bytes;
      checkDeclaredLength(input.declaredLength, maxBytes);
      const base = newRow(ctx, target);
      const stored = await storeLimited(blobStore, base.id, body, maxBytes);
      const row = await db
        .transaction(async (tx) => {
          const r = await insertTransfer(tx, {
            ...base,
            direction: 'upload',
            path: filePath,
            overwrite: input.overwrite,
            blobKey: base.id,
            size: stored.size,
            sha256: stored.sha256,
          });
          await writeAudit(tx, ctx, {
            action: 'Upload File To Device',
            resourceType: 'device',
            resourceId: target.device.id,
            details: describeTransfer(r, `sent to ${target.device.hostname ?? target.device.deviceGuid}`),
            newValues: { transfer_id: r.id, path: r.path, size: r.size, sha256: r.sha256 },
            siteIds: [target.device.siteId],
          });
          return r;
        })
        .catch(async (err: unknown) => {
          await blobStore.remove(base.id);
          throw err;
        });
      await toAgent(row.deviceId, {
        type: 'file_receive',
        transferId: row.id,
        path: row.path,
        size: stored.size,
        sha256: stored.sha256,
        overwrite: input.overwrite,
      });
      return view(row);
    },
  };
}
