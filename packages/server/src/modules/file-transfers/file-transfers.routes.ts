import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import { apiSuccess } from '@outpost/contract/envelope';
import {
  DownloadRequest,
  FileTransfer,
  FsListQuery,
  FsListing,
  TransferIdParams,
  UploadQuery,
  fileTransferMessages as messages,
} from '@outpost/contract/file-transfers';
import { IdParam } from '@outpost/contract/input';
import { bearerToken } from '../../lib/bearer';
import { badRequest } from '../../lib/errors';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import { contentDisposition } from '../files/files.routes';
import type { FileTransfersService } from './file-transfers.service';

// docs/product/remote-access.md#file-transfer. Bodies of file bytes (application/octet-stream)
// are handed to the route as the request's stream, never parsed or buffered: the session or agent
// check (onRequest) runs before a byte is read, and the service cuts the stream at the tenant's
// largest file (413).

const ok = <T>(data: T) => ({ success: true as const, data });
const DeviceParams = z.object({ id: IdParam });
const OCTETS = 'application/octet-stream';

/**
 * Octet-stream bodies are not parsed at all (this plugin's routes only): the route reads the
 * request's own stream. (No body object: the input rules of JSON bodies have nothing to walk.)
 */
function streamOctets(app: FastifyInstance): void {
  app.addContentTypeParser(OCTETS, (_request, _payload, done) => done(null, undefined));
}

/** A body refused before it was read whole: the connection closes, so its sender stops. */
async function closingOnRefusal<T>(reply: FastifyReply, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    reply.header('connection', 'close');
    throw err;
  }
}

function octetBody(request: FastifyRequest): Readable {
  const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
  if (type !== OCTETS || request.body !== undefined) {
    throw badRequest(messages.bodyMissing, 'FILE_MISSING');
  }
  return request.raw;
}

export const fileTransfersRoutes: FastifyPluginCallbackZod<{ service: FileTransfersService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  const tags = ['file-transfers'];
  useSpecValidationMessages(app);
  streamOctets(app);

  app.get(
    '/devices/:id/files',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: DeviceParams,
        querystring: FsListQuery,
        response: { 200: apiSuccess(FsListing) },
      },
    },
    async (request) => ok(await service.list(request.ctx, request.params.id, request.query.path)),
  );
  app.post(
    '/devices/:id/files/download',
    {
      config: { access: 'member' },
      schema: {
        tags,
        params: DeviceParams,
        body: DownloadRequest,
        response: { 200: apiSuccess(FileTransfer) },
      },
    },
    async (request) => ok(await service.startDownload(request.ctx, request.params.id, request.body.path)),
  );
  app.post(
    '/devices/:id/files/upload',
    {
      config: { access: 'member' },
      schema: {
        tags,
        summary: 'Upload a file to the device: the bytes are the body (application/octet-stream)',
        consumes: [OCTETS],
        params: DeviceParams,
        querystring: UploadQuery,
        response: { 200: apiSuccess(FileTransfer) },
      },
    },
    async (request, reply) =>
      closingOnRefusal(reply, async () =>
        ok(
          await service.upload(request.ctx, request.params.id, {
            path: request.query.path,
            overwrite: request.query.overwrite,
            body: () => octetBody(request),
            declaredLength: request.headers['content-length'],
          }),
        ),
      ),
  );
  app.get(
    '/file-transfers/:id',
    {
      config: { access: 'member' },
      schema: { tags, params: TransferIdParams, response: { 200: apiSuccess(FileTransfer) } },
    },
    async (request) => ok(await service.get(request.ctx, request.params.id)),
  );
  // the bytes of a ready download, streamed from the blob store; removed once sent
  app.get(
    '/file-transfers/:id/content',
    { config: { access: 'member' }, schema: { tags, params: TransferIdParams } },
    async (request, reply) => {
      const { transfer, stream, finished } = await service.openContent(request.ctx, request.params.id);
      reply.raw.once('finish', () => {
        finished().catch((err: unknown) => request.log.error({ err }, 'transfer cleanup failed'));
      });
      return reply
        .header('Content-Type', OCTETS)
        .header('Content-Length', String(transfer.size ?? 0))
        .header('Content-Disposition', contentDisposition(transfer.name))
        .header('X-Checksum-Sha256', transfer.sha256 ?? '')
        .header('Digest', `sha-256=${Buffer.from(transfer.sha256 ?? '', 'hex').toString('base64')}`)
        .header('Cache-Control', 'private, no-store')
        .send(stream);
    },
  );
  app.post(
    '/file-transfers/:id/cancel',
    {
      config: { access: 'member' },
      schema: { tags, params: TransferIdParams, response: { 200: apiSuccess(FileTransfer) } },
    },
    async (request) => ok(await service.cancel(request.ctx, request.params.id)),
  );
  done();
};

/**
 * PUT and GET /api/agent/transfers/{id}: the agent streams a download's bytes up, or an upload's
 * down, authenticated with its device guid and secret like its socket (and GET /api/agent/files).
 */
export const agentTransfersRoutes: FastifyPluginCallbackZod<{ service: FileTransfersService }> = (
  app,
  opts,
  done,
) => {
  const { service } = opts;
  streamOctets(app);
  const credentials = (request: FastifyRequest) => {
    const guid = request.headers[AGENT_DEVICE_HEADER];
    return {
      deviceGuid: typeof guid === 'string' ? guid : null,
      secret: bearerToken(request.headers.authorization),
    };
  };
  const schema = { tags: ['agents'], params: TransferIdParams, hide: true };

  app.put('/transfers/:id', { config: { access: 'agent' }, schema }, async (request, reply) =>
    closingOnRefusal(reply, async () =>
      ok(
        await service.agentPut(
          credentials(request),
          request.params.id,
          octetBody(request),
          request.headers['content-length'],
        ),
      ),
    ),
  );
  app.get('/transfers/:id', { config: { access: 'agent' }, schema }, async (request, reply) => {
    const file = await service.agentGet(credentials(request), request.params.id);
    return reply
      .header('Content-Type', OCTETS)
      .header('Content-Length', String(file.size))
      .header('X-Content-SHA256', file.sha256)
      .header('Cache-Control', 'private, no-store')
      .send(file.stream);
  });
  done();
};
