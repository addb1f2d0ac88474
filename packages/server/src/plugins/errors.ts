import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiErrorBody, FieldError } from '@outpost/contract/envelope';
import { messages } from '@outpost/contract/messages';
import { HttpError } from '../lib/errors';

// Every error leaves in the envelope {success:false, error}; 500s never carry internals.
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((err: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(err)) {
        const fields: FieldError[] = err.validation.map((v) => ({
          path: [err.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
          message: v.message ?? 'Invalid value',
        }));
        const first = fields[0];
        const body: ApiErrorBody = {
          success: false,
          error: first ? `${first.path}: ${first.message}` : messages.validationFailed,
          code: 'VALIDATION_ERROR',
          fields,
        };
        return reply.status(400).send(body);
      }
      if (err instanceof HttpError) {
        return reply.status(err.statusCode).send({ success: false, error: err.message, code: err.code });
      }
      if (isResponseSerializationError(err)) {
        request.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
        return reply.status(500).send({ success: false, error: messages.internalError, code: 'INTERNAL' });
      }
      const status = err.statusCode ?? 500;
      if (status >= 500) {
        request.log.error({ err }, 'request failed');
        return reply.status(500).send({ success: false, error: messages.internalError, code: 'INTERNAL' });
      }
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type…): their message is safe.
      return reply.status(status).send({ success: false, error: err.message, code: err.code });
    });

    app.setNotFoundHandler((request, reply) => {
      if (request.url.startsWith('/api') || request.method !== 'GET') {
        return reply.status(404).send({
          success: false,
          error: messages.routeNotFound(request.method, request.url.split('?')[0] ?? ''),
          code: 'NOT_FOUND',
        });
      }
      // Non-API GETs fall through to the SPA (static plugin decorates sendSpa when a build exists).
      if (app.hasDecorator('sendSpa')) {
        return app.sendSpa(reply);
      }
      return reply.status(404).send({ success: false, error: messages.notFound, code: 'NOT_FOUND' });
    });
  },
  { name: 'errors' },
);

declare module 'fastify' {
  interface FastifyInstance {
    sendSpa(reply: FastifyReply): FastifyReply;
  }
}
