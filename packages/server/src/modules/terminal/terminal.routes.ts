import type { FastifyRequest } from 'fastify';
import type { FastifyPluginCallbackZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { apiSuccess } from '@outpost/contract/envelope';
import { IdParam } from '@outpost/contract/input';
import { TerminalSessionView, TerminalSessionsQuery } from '@outpost/contract/terminal';
import { useSpecValidationMessages } from '../../plugins/spec-messages';
import type { TerminalOpening, TerminalService } from './terminal.service';

const ok = <T>(data: T) => ({ success: true as const, data });
const openings = new WeakMap<FastifyRequest, TerminalOpening>();

// docs/product/remote-access.md#terminal, under /api/customer. The browser's terminal socket
// authenticates like the portal socket (the session token in the query string, since a browser
// cannot send headers on a websocket), and every check runs BEFORE the upgrade, so a refusal is
// an ordinary 4xx answer with its message. Sessions and recordings are read within the caller's
// tenant and sites.
export const terminalRoutes: FastifyPluginCallbackZod<{ service: TerminalService }> = (app, opts, done) => {
  const { service } = opts;
  const tags = ['terminal'];
  useSpecValidationMessages(app);

  app.get(
    '/devices/:id/terminal',
    {
      config: { access: 'socket' as const },
      websocket: true,
      schema: { hide: true, params: z.object({ id: IdParam }) },
      preValidation: async (request) => {
        const opening = await service.prepare(request.query, request.params.id, {
          ip: request.ip,
          userAgent: request.headers['user-agent'] ?? null,
        });
        openings.set(request, opening);
      },
    },
    (socket, request) => {
      const opening = openings.get(request);
      if (!opening) {
        socket.close(1011, 'Internal error');
        return;
      }
      service.accept(socket, opening).catch((err: unknown) => {
        request.log.error({ err }, 'terminal session failed to start');
        socket.close(1011, 'Internal error');
      });
    },
  );

  app.get(
    '/terminal-sessions',
    {
      config: { access: 'member' as const },
      schema: {
        tags,
        querystring: TerminalSessionsQuery,
        response: { 200: apiSuccess(z.array(TerminalSessionView)) },
      },
    },
    async (request) => ok(await service.list(request.ctx, request.query)),
  );

  app.get(
    '/terminal-sessions/:id/recording',
    {
      config: { access: 'member' as const },
      schema: { tags, params: z.object({ id: z.string().uuid() }) },
    },
    async (request, reply) => {
      const { stream, fileName } = await service.recording(request.ctx, request.params.id);
      return reply
        .header('content-type', 'application/x-asciicast')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(stream);
    },
  );
  done();
};
