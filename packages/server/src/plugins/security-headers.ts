import type { IncomingMessage, ServerResponse } from 'node:http';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import type { HelmetOptions } from 'helmet';

// Security headers (docs/architecture.md#server): helmet's, on every response. @fastify/helmet builds a new
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

export type SecurityHeadersOptions = HelmetOptions & {
  /** API responses under this path get `Cache-Control: no-store` unless the route sets its own */
  noStorePrefix?: string;
};

const isHsts = (header: SecurityHeader) => header.name.toLowerCase() === 'strict-transport-security';

export const securityHeadersPlugin = fp(
  (app, { noStorePrefix, ...options }: SecurityHeadersOptions, done) => {
    const { set, removed } = helmetHeaders(options);
    const always = set.filter((h) => !isHsts(h));
    const hsts = set.filter(isHsts);
    const isNoStore = (url: string) =>
      noStorePrefix !== undefined &&
      (url === noStorePrefix || url.startsWith(`${noStorePrefix}/`) || url.startsWith(`${noStorePrefix}?`));
    app.addHook('onRequest', (request, reply, next) => {
      // on the raw response, as helmet does: a route's own reply.header() still wins
      for (const header of always) {
        reply.raw.setHeader(header.name, header.value);
      }
      // HSTS only over HTTPS: TLS on this socket, or X-Forwarded-Proto from a proxy TRUST_PROXY
      // trusts (Fastify's request.protocol). Over plain HTTP it means nothing to a browser, and a
      // LAN installation without TLS must not announce it (SECURITY.md, response headers).
      if (request.protocol === 'https') {
        for (const header of hsts) {
          reply.raw.setHeader(header.name, header.value);
        }
      }
      // API answers carry tenant data and are never worth keeping in a shared or browser cache.
      if (isNoStore(request.url)) {
        reply.raw.setHeader('Cache-Control', 'no-store');
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
