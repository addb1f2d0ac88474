import path from 'node:path';
import type { Readable } from 'node:stream';
import { formatBytes, showFileName } from '@outpost/contract/files';
import type { UploadedFile } from '@outpost/contract/files';
import { packageMessages as messages } from '@outpost/contract/messages';
import type { Db } from '../../db/client';
import { writeAudit } from '../../lib/audit';
import type { Executor } from '../../lib/db';
import { HttpError, badRequest, conflict, notFound } from '../../lib/errors';
import type { TenantScope } from '../../lib/scope';
import type { RequestContext } from '../../lib/context';
import { newStorageKey } from './blob-store';
import type { BlobStore } from './blob-store';
import { quotaExceeded } from './storage-quota';
import type { StorageQuota, UploadRoom } from './storage-quota';
import {
  deleteFile,
  findFile,
  findFileBySha256,
  findFileUse,
  findFilesByIds,
  insertFile,
  toUploadedFile,
} from './files.queries';
import type { FileRow } from './files.queries';

export type { FileRow };

export type IncomingFile = {
  filename: string;
  mimetype: string | null;
  stream: Readable;
  /** True when the stream was cut at the size limit (the multipart parser stops it there). */
  isTruncated(): boolean;
  /** the room the tenant's quota left when the upload began; the stream was limited to it */
  room: UploadRoom;
};

const MAX_NAME_LENGTH = 255;

/**
 * The name shown to people: the last path segment, control characters removed, length capped.
 * It is a label only: the blob is stored under a generated key, never under this name.
 */
export function displayName(filename: string): string {
  const base = path.win32.basename(path.posix.basename(filename));
  const printable = [...base].filter((c) => c.charCodeAt(0) >= 0x20 && c.charCodeAt(0) !== 0x7f).join('');
  const name = printable.trim().slice(0, MAX_NAME_LENGTH);
  // '.' and '..' name a folder, not a file: nothing is left to show
  return name === '.' || name === '..' ? '' : name;
}

/** @fastify/multipart's error when a file passes the fileSize limit. */
const isTooLarge = (err: unknown) =>
  typeof err === 'object' && err !== null && (err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE';

/**
 * Lookups other modules make inside their own transaction (a package step names files of the
 * tenant). They take the caller's transaction and tenant scope; they decide nothing themselves.
 */
export const fileLookup = {
  findByIds: (tx: Executor, scope: TenantScope, ids: number[]): Promise<FileRow[]> =>
    findFilesByIds(tx, scope, ids),
  findBySha256: (tx: Executor, scope: TenantScope, sha256: string): Promise<FileRow | null> =>
    findFileBySha256(tx, scope, sha256),
  /** Records a file already in the blob store (the demo's placeholder), without audit. */
  recordStored: (tx: Executor, values: Parameters<typeof insertFile>[1]): Promise<FileRow> =>
    insertFile(tx, values),
};

// Any signed-in member may upload and manage files: they are inputs to packages, which every
// member may build (docs/product/administration.md#who-may-do-what). Everything is scoped to the caller's tenant.
export type FilesServiceDeps = {
  db: Db;
  blobStore: BlobStore;
  maxUploadBytes: number;
  quota: StorageQuota;
};

export function createFilesService({ db, blobStore: store, ...opts }: FilesServiceDeps) {
  return {
    /** What the caller's tenant may still upload (read before the upload's body is). */
    room: (ctx: RequestContext) => opts.quota.room(ctx),
    usage: (ctx: RequestContext) => opts.quota.usage(ctx),

    async upload(ctx: RequestContext, incoming: IncomingFile): Promise<UploadedFile> {
      const originalFilename = displayName(incoming.filename);
      if (!originalFilename) {
        incoming.stream.resume();
        throw badRequest(messages.fileEmptyName, 'FILE_NAME_MISSING');
      }
      const key = newStorageKey();
      // the stream was cut at the smaller of the two limits: the one it met is the one to name
      const { room } = incoming;
      const tooLarge = () =>
        room.remaining < opts.maxUploadBytes
          ? quotaExceeded(room.remaining, room.quota)
          : new HttpError(413, messages.fileTooLarge(formatBytes(opts.maxUploadBytes)), 'FILE_TOO_LARGE');
      let stored;
      try {
        stored = await store.put(key, incoming.stream);
      } catch (err) {
        throw isTooLarge(err) ? tooLarge() : err;
      }
      if (incoming.isTruncated()) {
        await store.remove(key);
        throw tooLarge();
      }
      try {
        const row = await db.transaction(async (tx) => {
          await opts.quota.claim(tx, ctx, stored.size);
          const inserted = await insertFile(tx, {
            tenantId: ctx.tenantId,
            storageKey: key,
            originalFilename,
            contentType: incoming.mimetype,
            sizeBytes: stored.size,
            sha256: stored.sha256,
            uploadedBy: ctx.userId,
            uploadedByName: ctx.name ?? ctx.email,
          });
          await writeAudit(tx, ctx, {
            action: 'Upload File',
            resourceType: 'file',
            resourceId: inserted.id,
            details: `Uploaded ${showFileName(originalFilename)} (${formatBytes(stored.size)})`,
            newValues: { originalFilename, size: stored.size, sha256: stored.sha256 },
          });
          return inserted;
        });
        return toUploadedFile(row);
      } catch (err) {
        await store.remove(key);
        throw err;
      }
    },

    async get(ctx: RequestContext, id: number): Promise<UploadedFile> {
      const row = await findFile(db, ctx, id);
      if (!row) {
        throw notFound(messages.fileNotFound, 'FILE_NOT_FOUND');
      }
      return toUploadedFile(row);
    },

    async openDownload(ctx: RequestContext, id: number): Promise<{ file: UploadedFile; stream: Readable }> {
      const row = await findFile(db, ctx, id);
      if (!row) {
        throw notFound(messages.fileNotFound, 'FILE_NOT_FOUND');
      }
      return { file: toUploadedFile(row), stream: await store.open(row.storageKey) };
    },

    /** Refused with 409 while a saved step uses the file (the foreign key would refuse it too). */
    async remove(ctx: RequestContext, id: number): Promise<void> {
      const row = await db.transaction(async (tx) => {
        const existing = await findFile(tx, ctx, id, { lock: true });
        if (!existing) {
          throw notFound(messages.fileNotFound, 'FILE_NOT_FOUND');
        }
        const use = await findFileUse(tx, id);
        if (use) {
          throw conflict(messages.fileInUse(use.stepName, use.packageName), 'FILE_IN_USE');
        }
        await deleteFile(tx, ctx, id);
        await writeAudit(tx, ctx, {
          action: 'Delete File',
          resourceType: 'file',
          resourceId: id,
          details: `Deleted ${showFileName(existing.originalFilename)}`,
          oldValues: {
            originalFilename: existing.originalFilename,
            size: existing.sizeBytes,
            sha256: existing.sha256,
          },
        });
        return existing;
      });
      // The row is gone; the bytes follow once the transaction has committed.
      await store.remove(row.storageKey);
    },
  };
}

export type FilesService = ReturnType<typeof createFilesService>;
