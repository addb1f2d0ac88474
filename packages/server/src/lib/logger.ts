import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyRequest, FastifyServerOptions } from 'fastify';

// Credentials never reach the log. The portal socket carries the session token in its URL
// (docs/product/live-updates.md#channels, /api/ws?tenantId&userId&token), agents and the API carry secrets in
// headers, sign-in and enrolment carry them in bodies. Three layers keep them out:
//   1. the request serializer logs the URL with sensitive query values replaced;
//   2. pino's redaction censors sensitive keys in logged objects (headers, bodies, our own fields);
//   3. a last pass over every logged message string replaces sensitive query values and bearer
//      credentials that a message might quote.

export const REDACTED = '[redacted]';

/** Query parameter and field names whose values are credentials. */
const SENSITIVE_NAME = /token|secret|password|passwd|authorization|cookie|api[-_]?key|credential/i;

/** name=value pairs in a query string or text whose name is sensitive. */
const SENSITIVE_PAIR =
  /([?&;]|\b)([A-Za-z0-9_.-]*(?:token|secret|password|passwd|authorization|cookie|api[-_]?key|credential)[A-Za-z0-9_.-]*)=([^&#\s"']*)/gi;
/** "Bearer abc" / "Basic abc" wherever it appears in a message. */
const AUTH_SCHEME = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/gi;

/** A URL (or path with query) with the values of sensitive query parameters replaced. */
export function redactUrl(url: string): string {
  const query = url.indexOf('?');
  if (query === -1) {
    return url;
  }
  const params = url
    .slice(query + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq === -1 ? pair : pair.slice(0, eq);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // keep the raw name
      }
      return eq !== -1 && SENSITIVE_NAME.test(decoded) ? `${name}=${REDACTED}` : pair;
    });
  return `${url.slice(0, query)}?${params.join('&')}`;
}

/** Free text (a log message) with sensitive name=value pairs and bearer credentials replaced. */
export function redactText(text: string): string {
  return text
    .replace(SENSITIVE_PAIR, (_m, sep: string, name: string) => `${sep}${name}=${REDACTED}`)
    .replace(AUTH_SCHEME, (_m, scheme: string) => `${scheme} ${REDACTED}`);
}

// pino redaction paths: headers as Fastify and Node log them, and credential fields of any
// logged object up to two levels down (pino's wildcards match one level each).
const SENSITIVE_KEYS = [
  'token',
  'secret',
  'password',
  'authorization',
  'cookie',
  'device_secret',
  'deviceSecret',
  'enrollment_token',
  'enrollmentToken',
  'metricsToken',
  'METRICS_TOKEN',
  'sessionSecret',
  'SESSION_SECRET',
];
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["set-cookie"]',
  'res.headers["set-cookie"]',
  'headers.authorization',
  'headers.cookie',
  ...SENSITIVE_KEYS.flatMap((key) => [key, `*.${key}`, `*.*.${key}`]),
];

type RequestLike = {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
};

/** The Fastify logger options every server uses (main, CLI, tests that capture the log). */
export function loggerOptions(level: string): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      // Fastify's default request serializer, with the URL's credentials removed.
      req: (request: RequestLike) => ({
        method: request.method,
        url: request.url === undefined ? undefined : redactUrl(request.url),
        host: request.hostname,
        remoteAddress: request.ip,
        remotePort: request.socket?.remotePort,
      }),
    },
    // The request id (requestLoggerFactory) and the caller bound by bindCallerToLog, added to a
    // line only when one is written; a new object per line, as pino merges the line's own fields
    // into the one the mixin returns.
    mixin: (_merge, _level, logger) => ({ ...bindingsOf(logger), ...callerOf(logger) }),
    hooks: {
      logMethod(args, method) {
        const redacted = args.map((arg: unknown) => (typeof arg === 'string' ? redactText(arg) : arg));
        return method.apply(this, redacted as Parameters<typeof method>);
      },
    },
  };
}

/** A request id from the proxy (X-Request-Id) is used only when it is a plain id. */
const PLAIN_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Fastify's genReqId. Behind a trusted proxy (TRUST_PROXY), the proxy's X-Request-Id
 * (deploy/nginx.conf sends nginx's $request_id), so one id finds a request in both logs; otherwise,
 * or when the header is not a plain id (missing, too long, characters a client might use to forge
 * log lines), a fresh random id.
 */
export function requestIdGenerator(behindProxy: boolean): (request: IncomingMessage) => string {
  return (request) => {
    const header = behindProxy ? request.headers['x-request-id'] : undefined;
    return typeof header === 'string' && PLAIN_ID.test(header) ? header : crypto.randomUUID();
  };
}

const CALLER = Symbol('outpost.caller');
type Caller = { tenantId: number; userId: number };
type WithCaller = { [CALLER]?: Caller };

const callerOf = (logger: object): Caller | undefined => (logger as WithCaller)[CALLER];

const BINDINGS = Symbol('outpost.request-bindings');
type WithBindings = { [BINDINGS]?: Record<string, unknown> };
const bindingsOf = (logger: object) => (logger as WithBindings)[BINDINGS];

type ChildLoggerFactory = NonNullable<FastifyServerOptions['childLoggerFactory']>;

/**
 * Fastify's childLoggerFactory: each request's logger, with the request id (`{ reqId }`) kept
 * beside it and written by the mixin (loggerOptions) on the lines actually written, as the
 * caller is. pino's own child(bindings) serialises the bindings when the child is made, through
 * the redaction (REDACT_PATHS has wildcard-first paths, which every binding goes through): for
 * a request that writes no line at LOG_LEVEL=warn that was about 1.5 % of its CPU by the api
 * benchmark's profile. Loggers made from the request's logger inherit the id (pino's children
 * are their parent's prototype).
 */
export const requestLoggerFactory: ChildLoggerFactory = (logger, bindings, options) => {
  const child = logger.child({}, options);
  (child as WithBindings)[BINDINGS] = bindings;
  return child;
};

/**
 * Once a request's session is known, its log lines (the handler's and Fastify's "request
 * completed") carry the caller's tenant and user next to the request id (reqId). The caller is
 * remembered on the request's logger and added by the logger's mixin (loggerOptions) to the lines
 * actually written: a child logger per request cost 2 % of a cheap request's CPU (pino serialises
 * and redacts a child's bindings when it is made), for lines that at LOG_LEVEL=warn are never
 * written. Loggers made from the request's logger inherit it (pino children are its prototype's).
 */
export function bindCallerToLog(request: FastifyRequest, caller: Caller): void {
  (request.log as WithCaller)[CALLER] = { tenantId: caller.tenantId, userId: caller.userId };
}
