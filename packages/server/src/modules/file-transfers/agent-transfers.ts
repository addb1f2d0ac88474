import type { Readable } from 'node:stream';
import { fileTransferMessages as messages } from '@outpost/contract/file-transfers';
import { messages as commonMessages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { HttpError, conflict, notFound, unauthorized } from '../../lib/errors';
import { authenticateAgent } from '../agents/agent-auth';
import type { BlobStore } from '../files/blob-store';
import { findTransfer, recordStored } from './file-transfers.queries';
import type { TransferRow } from './file-transfers.queries';
import { checkDeclaredLength, storeLimited } from './transfer-bytes';
import type { TransferEnds } from './transfer-ends';

// The agent's side of a transfer (docs/product/remote-access.md#file-transfer): PUT and GET
// /api/agent/transfers/{id}, with the device's guid and secret like its socket, only for a
// pending transfer of that device in that direction.

export type AgentCredentials = { deviceGuid: string | null; secret: string | null };

export function createAgentTransfers(deps: { db: Db; blobStore: BlobStore; ends: TransferEnds }) {
  const { db, blobStore, ends } = deps;

  /** The agent's credentials, proven, and a transfer of its device in `direction`. */
  async function agentTransfer(
    credentials: AgentCredentials,
    id: string,
    direction: TransferRow['direction'],
  ): Promise<TransferRow> {
    const { deviceGuid, secret } = credentials;
    if (deviceGuid === null || !secret) {
      throw unauthorized(commonMessages.agentAuthMissing, 'AGENT_AUTH_REQUIRED');
    }
    const device = await authenticateAgent(db, deviceGuid, secret);
    if (!device) {
      throw unauthorized(commonMessages.agentAuthFailed, 'AGENT_AUTH_FAILED');
    }
    const row = await findTransfer(db, id);
    if (!row || row.deviceId !== device.id || row.direction !== direction) {
      throw notFound(messages.transferNotFound, 'TRANSFER_NOT_FOUND');
    }
    if (row.status !== 'pending') {
      throw conflict(messages.alreadyOver, 'TRANSFER_OVER');
    }
    return row;
  }

  return {
    /** PUT /api/agent/transfers/{id}: the agent streams a download's bytes */
    async agentPut(
      credentials: AgentCredentials,
      id: string,
      body: Readable,
      declaredLength: string | undefined,
    ): Promise<{ size: number; sha256: string }> {
      const row = await agentTransfer(credentials, id, 'download');
      if (row.blobKey) {
        throw conflict(messages.alreadyOver, 'TRANSFER_OVER');
      }
      try {
        checkDeclaredLength(declaredLength, row.maxBytes);
        const stored = await storeLimited(blobStore, row.id, body, row.maxBytes);
        const recorded = await recordStored(db, row.id, { blobKey: row.id, ...stored });
        if (!recorded) {
          // cancelled or timed out while the bytes came
          await blobStore.remove(row.id);
          throw conflict(messages.alreadyOver, 'TRANSFER_OVER');
        }
        return stored;
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 413) {
          await ends.fail(row, err.message, ['pending']);
        }
        throw err;
      }
    },

    /** GET /api/agent/transfers/{id}: the agent fetches an upload's bytes */
    async agentGet(
      credentials: AgentCredentials,
      id: string,
    ): Promise<{ size: number; sha256: string; stream: Readable }> {
      const row = await agentTransfer(credentials, id, 'upload');
      if (!row.blobKey || row.size === null || !row.sha256) {
        throw conflict(messages.alreadyOver, 'TRANSFER_OVER');
      }
      return { size: row.size, sha256: row.sha256, stream: await blobStore.open(row.blobKey) };
    },
  };
}
