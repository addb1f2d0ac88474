import type { FastifyPluginCallback } from 'fastify';

// WS /api/ws?tenantId&userId&token (docs/product/live-updates.md#connection, #channels). The hub authenticates from the
// query string once the socket is open, so it can answer with the product's close codes.
export const portalSocketRoutes: FastifyPluginCallback = (app, _opts, done) => {
  app.get(
    '/ws',
    { config: { access: 'socket' }, websocket: true, schema: { hide: true } },
    (socket, request) => {
      app.portalHub.accept(socket, request);
    },
  );
  done();
};
