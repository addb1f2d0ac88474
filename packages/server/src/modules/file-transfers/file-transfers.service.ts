import crypto from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ServerRemoteMessage } from '@outpost/contract/agent-protocol';
import {
  FS_LIST_TIMEOUT_MS,
  TRANSFER_RETENTION_MS,
  fileTransferMessages as messages,
} from '@outpost/contract/file-transfers';
import type { FsListing } from '@outpost/contract/file-transfers';
import type { Db } from '../../db/client';
import type { RequestContext } from '../../lib/context';
import { HttpError, forbidden } from '../../lib/errors';
import { createPeriodic } from '../../lib/periodic';
import type { Bus } from '../../live/bus';
import { systemClock } from '../deployments/engine/clock';
import type { BlobStore } from '../files/blob-store';
import type { RemoteAccessService } from '../remote-access/remote-access.service';
import { createAgentTransfers } from './agent-transfers';
import { findExpired } from './file-transfers.queries';
import { createReplyWaiters } from './reply-waiters';
import { createTransferEnds } from './transfer-ends';
import { createTransferFollowing } from './transfer-following';
import { createTransferStarts } from './transfer-starts';

// docs/product/remote-access.md#file-transfer: browsing a device's folders, downloads and uploads.
// Every request first passes remoteAccess.authorize(ctx, 'files', device) (the switch, the role,
// the caller's sites). Messages reach the agent wherever its socket is (`agent.remote`); the bytes
// go through a temporary blob (docs/decisions/2026-11-27-file-transfer.md).

export type { AgentCredentials } from './agent-transfers';

export function createFileTransfersService(deps: {
  db: Db;
  bus: Pick<Bus, 'publish' | 'subscribe'>;
  blobStore: BlobStore;
  remoteAccess: Pick<RemoteAccessService, 'authorize'>;
  log: FastifyBaseLogger;
  /** how long a listing waits for the agent (tests shorten it) */
  listTimeoutMs?: number;
  sweepIntervalMs?: number;
}) {
  const { db, bus, blobStore, remoteAccess, log } = deps;
  const ends = createTransferEnds({ db, blobStore });
  const waiters = createReplyWaiters(bus, (deviceId, message) => {
    ends
      .onStatus(deviceId, message)
      .catch((err: unknown) => log.error({ err }, 'file transfer status failed'));
  });
  const toAgent = (deviceId: number, message: ServerRemoteMessage) =>
    bus.publish('agent.remote', { deviceId, message });
  const following = createTransferFollowing({ db, blobStore, ends, remoteAccess, toAgent });
  const agentSide = createAgentTransfers({ db, blobStore, ends });
  const starts = createTransferStarts({ db, blobStore, remoteAccess, toAgent });

  async function sweep(now: number): Promise<void> {
    for (const row of await findExpired(db, new Date(now - TRANSFER_RETENTION_MS))) {
      if (row.status === 'pending' || row.status === 'ready') {
        await ends.fail(row, messages.timedOut);
      }
      await ends.dropBlob(row);
    }
  }
  const sweeper = createPeriodic({
    name: 'file transfer sweep',
    pass: sweep,
    clock: systemClock,
    intervalMs: deps.sweepIntervalMs ?? 5 * 60_000,
    log,
  });

  return {
    start() {
      waiters.start();
      sweeper.start();
    },
    async stop() {
      waiters.stop();
      await sweeper.stop();
    },
    sweep: () => sweeper.tick(),

    /** GET /devices/{id}/files: the agent lists the folder (an empty path: the top) */
    async list(ctx: RequestContext, deviceId: number, folder: string | undefined): Promise<FsListing> {
      const target = await starts.reach(ctx, deviceId);
      const requestId = crypto.randomUUID();
      const answer = waiters.wait(requestId, target.device.id, deps.listTimeoutMs ?? FS_LIST_TIMEOUT_MS);
      await toAgent(target.device.id, { type: 'fs_list', requestId, path: folder?.trim() || '/' });
      const result = await answer;
      if (!result || result.type !== 'fs_list_result') {
        throw new HttpError(504, messages.noAnswer, 'DEVICE_NO_ANSWER');
      }
      if (result.error) {
        throw result.error.includes('turned off')
          ? forbidden(result.error, 'REMOTE_FILES_REFUSED')
          : new HttpError(422, result.error, 'LIST_FAILED');
      }
      const entries = [...result.entries].sort(
        (a, b) =>
          Number(b.kind === 'dir') - Number(a.kind === 'dir') ||
          a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
      );
      return { path: result.path, entries, truncated: result.truncated ?? false };
    },

    ...starts,
    ...following,
    ...agentSide,
  };
}

export type FileTransfersService = ReturnType<typeof createFileTransfersService>;
