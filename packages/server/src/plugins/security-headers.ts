import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { HelmetOptions } from 'helmet';

// Security headers (ARCHITECTURE §2): helmet's, on every response. @fastify/helmet builds a new
// helmet middleware for every request (parsing the CSP directives again each time) in two hooks,
// about 3 % of a cheap API request's CPU; with no CSP nonces the headers are the same for every
// response, so they are computed once here and set by one hook.

export type SecurityHeader = { name: string; value: string };

/** The headers helmet sets with these options (and the ones it removes), in its order. */
export function helmetHeaders(options: HelmetOptions): { set: SecurityHeader[]; removed: string[] } {
  const set: SecurityHeader[] = [];
  const removed: string[] = [];
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      set.push({ name, value: String(value) });
    },
    removeHeader(name: string) {
      removed.push(name);
    },
  };
  // helmet 8 throws a bad option itself; the callback's error argument is kept for compatibility
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) {
      throw err instanceof Error ? err : new Error('helmet refused its options');
    }
  });
  return { set, removed };
}

export const securityHeadersPlugin = fp(
  (app, options: HelmetOptions, done) => {
    const { set, removed } = helmetHeaders(options);
    app.addHook('onRequest', (_request, reply, next) => {
      // on the raw response, as helmet does: a route's own reply.header() still wins
      for (const header of set) {
        reply.raw.setHeader(header.name, header.value);
      }
      for (const name of removed) {
        reply.raw.removeHeader(name);
      }
      next();
    });
    done();
  },
  { name: 'security-headers' },
);
