import crypto from 'node:crypto';
import type { FastifyPluginCallback } from 'fastify';
import { SIGNATURE_HEADER } from '@outpost/contract/notification-channels';

// The demo's local webhook receiver (docs/user-guide.md#the-demo): POST /api/demo/webhook, only
// with the embedded demo. The demo's "Local receiver" channel points here, so its deliveries
// succeed and show in the channel's log; each message is logged with whether its signature holds.

export const DEMO_WEBHOOK_SECRET = 'outpost-demo-webhook-signing-secret';
export const DEMO_WEBHOOK_PATH = '/api/demo/webhook';

export const demoReceiverRoutes: FastifyPluginCallback = (app, _opts, done) => {
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'string', bodyLimit: 1024 * 1024 },
    (_req, body, next) => next(null, body),
  );
  app.post('/webhook', { config: { access: 'public' as const } }, async (request, reply) => {
    const body = typeof request.body === 'string' ? request.body : '';
    const expected = `sha256=${crypto.createHmac('sha256', DEMO_WEBHOOK_SECRET).update(body).digest('hex')}`;
    const given = request.headers[SIGNATURE_HEADER.toLowerCase()];
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return reply.code(400).send({ success: false, error: 'Not JSON', code: 'BAD_REQUEST' });
    }
    const raw = (parsed as { subject?: unknown } | null)?.subject;
    const subject = typeof raw === 'string' ? raw : '';
    request.log.info(
      { subject, signed: given === expected },
      'demo webhook receiver: a notification arrived',
    );
    return reply.code(204).send();
  });
  done();
};
