import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { apiSuccess, MessageOnly } from '@outpost/contract/envelope';
import { FILE_FIELD, FileIdParams, StorageUsage, UploadedFile } from '@outpost/contract/files';
import { packageMessages as messages } from '@outpost/contract/messages';
import { badRequest } from '../../lib/errors';
import type { FilesService } from './files.service';
import { checkPartHeaders, firstPart, withPartErrors } from './upload-part';
import { MULTIPART_ALLOWANCE_BYTES, quotaExceeded } from './storage-quota';

/** `maxUploadBytes`: the configured limit of one file (MAX_UPLOAD_BYTES), the service's too. */
export type FilesRoutesOptions = { service: FilesService; maxUploadBytes: number };

/** RFC 6266: an ASCII fallback name plus the exact UTF-8 name. */
export function contentDisposition(filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

// docs/product/packages.md#calls; #files.
export const filesRoutes: FastifyPluginAsyncZod<FilesRoutesOptions> = async (app, opts) => {
  const { service, maxUploadBytes } = opts;
  // Registered here, so only these routes parse multipart bodies; the file part is consumed as a
  // stream, and the session check (onRequest) runs before a byte of it is read.
  await app.register(multipart, {
    limits: { fileSize: maxUploadBytes, files: 1, fields: 10, fieldSize: 1024, parts: 12 },
  });

  app.post(
    '/files',
    {
      config: { access: 'member' },
      schema: {
        tags: ['files'],
        summary: `Upload one file as the multipart field "${FILE_FIELD}"`,
        consumes: ['multipart/form-data'],
        response: { 200: apiSuccess(UploadedFile) },
      },
    },
    async (request) => {
      if (!request.isMultipart()) {
        throw badRequest(messages.fileMissing, 'FILE_MISSING');
      }
      // the quota (SECURITY.md R2-14): a declared length that cannot fit is refused before a
      // byte is read; otherwise the file's stream stops where the room left ends
      const room = await service.room(request.ctx);
      const declared = Number(request.headers['content-length'] ?? 0);
      if (declared - MULTIPART_ALLOWANCE_BYTES > room.remaining) {
        throw quotaExceeded(room.remaining, room.quota);
      }
      const part = await firstPart(request, { fileSize: Math.min(maxUploadBytes, room.remaining) });
      if (!part || part.fieldname !== FILE_FIELD) {
        part?.file.resume();
        throw badRequest(messages.fileMissing, 'FILE_MISSING');
      }
      checkPartHeaders(part);
      const data = await withPartErrors(part, () =>
        service.upload(request.ctx, {
          filename: part.filename,
          mimetype: part.mimetype || null,
          stream: part.file,
          isTruncated: () => part.file.truncated,
          room,
        }),
      );
      return { success: true as const, data };
    },
  );

  app.get(
    '/files/usage',
    {
      config: { access: 'member' },
      schema: { tags: ['files'], response: { 200: apiSuccess(StorageUsage) } },
    },
    async (request) => ({ success: true as const, data: await service.usage(request.ctx) }),
  );

  app.get(
    '/files/:id',
    {
      config: { access: 'member' },
      schema: { tags: ['files'], params: FileIdParams, response: { 200: apiSuccess(UploadedFile) } },
    },
    async (request) => ({ success: true as const, data: await service.get(request.ctx, request.params.id) }),
  );

  // The bytes, streamed from the blob store (no response schema: the body is the file itself).
  app.get(
    '/files/:id/download',
    { config: { access: 'member' }, schema: { tags: ['files'], params: FileIdParams } },
    async (request, reply) => {
      const { file, stream } = await service.openDownload(request.ctx, request.params.id);
      return reply
        .header('Content-Type', 'application/octet-stream')
        .header('Content-Length', String(file.size))
        .header('Content-Disposition', contentDisposition(file.originalFilename))
        .header('X-Content-SHA256', file.sha256)
        .header('Cache-Control', 'private, no-store')
        .send(stream);
    },
  );

  app.delete(
    '/files/:id',
    {
      config: { access: 'member' },
      schema: { tags: ['files'], params: FileIdParams, response: { 200: apiSuccess(MessageOnly) } },
    },
    async (request) => {
      await service.remove(request.ctx, request.params.id);
      return { success: true as const, data: { message: 'File deleted' } };
    },
  );
};
