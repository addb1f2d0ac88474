import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ApiErrorBody, FieldError } from '@outpost/contract/envelope';
import { findInputProblem } from '@outpost/contract/input';
import { inputMessages, messages } from '@outpost/contract/messages';
import { isDatabaseUnavailable } from '../lib/db-unavailable';
import { HttpError } from '../lib/errors';

const validationError = (fields: FieldError[]): ApiErrorBody => {
  const first = fields[0];
  return {
    success: false,
    error: first ? `${first.path}: ${first.message}` : messages.validationFailed,
    code: 'VALIDATION_ERROR',
    fields,
  };
};

const REQUEST_PARTS = ['params', 'querystring', 'body'] as const;

/**
 * The message for a multipart stream the client broke (cut short, malformed, aborted), or null
 * for anything else. The multipart parser (busboy) throws plain errors; a file system error
 * (full disk, permissions) carries a syscall and stays a 500.
 */
export function multipartClientError(err: unknown): string | null {
  if (!(err instanceof Error) || 'syscall' in err) {
    return null;
  }
  const code = (err as { code?: unknown }).code;
  if (
    /^Unexpected end of (form|file|multipart data)/i.test(err.message) ||
    err.message === 'aborted' ||
    code === 'ECONNRESET'
  ) {
    return inputMessages.uploadIncomplete;
  }
  if (/^Malformed (part header|urlencoded form)|^Multipart: Boundary not found/i.test(err.message)) {
    return inputMessages.uploadMalformed(err.message);
  }
  return null;
}

/**
 * Fastify's `frameworkErrors`: a URL the router refuses before any route or hook runs (a bad
 * percent-encoding, a path parameter past maxParamLength) answers in the envelope like every
 * other rejection, not in Fastify's own shape.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
  void reply.status(tooLong ? 414 : 400).send({
    success: false,
    error: tooLong ? inputMessages.paramTooLong : inputMessages.urlInvalid,
    code: error.code,
  } satisfies ApiErrorBody);
}

/**
 * Node's HTTP parser refuses some requests before Fastify sees them (headers or URL past 16 KiB,
 * a request that never finishes arriving, bytes that are not HTTP): the answer is written on the
 * socket, in the envelope, and the connection closed (as Fastify's default handler does).
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) {
    return;
  }
  const [status, message, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [431, inputMessages.headersTooLarge, 'HEADERS_TOO_LARGE']
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, inputMessages.requestTimeout, 'REQUEST_TIMEOUT']
        : [400, inputMessages.requestUnreadable, 'BAD_REQUEST'];
  const body = JSON.stringify({ success: false, error: message, code } satisfies ApiErrorBody);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

// Every error leaves in the envelope {success:false, error}; 500s never carry internals.
export const errorsPlugin = fp(
  (app, _opts, done) => {
    // The contract's input rules (no NUL characters, bounded nesting) for every route's params,
    // query and body, before its own schema: so no route can hand such input to the database.
    app.addHook('preValidation', (request, reply, next) => {
      const parts = { params: request.params, querystring: request.query, body: request.body };
      for (const part of REQUEST_PARTS) {
        const problem = findInputProblem(parts[part]);
        if (problem) {
          const path = [part, problem.path].filter(Boolean).join('.');
          void reply.status(400).send(validationError([{ path, message: problem.message }]));
          return;
        }
      }
      next();
    });

    app.setErrorHandler((err: FastifyError, request, reply) => {
      if (hasZodFastifySchemaValidationErrors(err)) {
        const fields: FieldError[] = err.validation.map((v) => ({
          path: [err.validationContext, ...String(v.instancePath).split('/').filter(Boolean)].join('.'),
          message: v.message ?? 'Invalid value',
        }));
        return reply.status(400).send(validationError(fields));
      }
      if (err instanceof HttpError) {
        return reply.status(err.statusCode).send({ success: false, error: err.message, code: err.code });
      }
      if (isResponseSerializationError(err)) {
        request.log.error({ err, issues: err.cause.issues }, 'response does not match its schema');
        return reply.status(500).send({ success: false, error: messages.internalError, code: 'INTERNAL' });
      }
      const status = err.statusCode ?? 500;
      const uploadProblem = status >= 500 ? multipartClientError(err) : null;
      if (uploadProblem) {
        request.log.info({ err: err.message }, 'multipart upload broken off by the client');
        return reply.status(400).send({ success: false, error: uploadProblem, code: 'UPLOAD_INVALID' });
      }
      if (status >= 500 && isDatabaseUnavailable(err)) {
        // PostgreSQL stopped or restarting: a clear, retryable 503; the pool reconnects by itself.
        request.log.warn({ err: err.message }, 'request failed: database unavailable');
        void reply.header('retry-after', '5');
        return reply
          .status(503)
          .send({ success: false, error: messages.databaseUnavailable, code: 'DB_UNAVAILABLE' });
      }
      if (status >= 500) {
        request.log.error({ err }, 'request failed');
        return reply.status(500).send({ success: false, error: messages.internalError, code: 'INTERNAL' });
      }
      // Fastify's own 4xx (bad JSON, body too large, unsupported media type…): their message is safe.
      return reply.status(status).send({ success: false, error: err.message, code: err.code });
    });

    app.setNotFoundHandler((request, reply) => {
      // /api and below only: a screen whose path merely starts with "api" (/api-tokens) is the SPA's
      if (/^\/api(?:[/?]|$)/.test(request.url) || request.method !== 'GET') {
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
    done();
  },
  { name: 'errors' },
);

declare module 'fastify' {
  interface FastifyInstance {
    sendSpa(reply: FastifyReply): FastifyReply;
  }
}
