import crypto from 'node:crypto';
import http from 'node:http';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import pg from 'pg';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { JOB_STATUSES } from '@outpost/contract/live';
import type { Config } from '../config';
import type { Database } from '../db/client';
import { bearerToken } from '../lib/bearer';
import type { BusObserver, BusTopic } from '../live/bus';
import { deviceDeploymentsByStatus, jobsByStatus } from './metrics.queries';
import type { StatusCount } from './metrics.queries';

// Prometheus metrics (docs/operations.md#metrics). GET /metrics is not under /api,
// so the authorisation backstop (plugins/access.ts) does not apply to it: the route decides
// itself, like the agent routes do. On the main port it answers only when METRICS_TOKEN is set
// and only to `Authorization: Bearer <METRICS_TOKEN>` (compared in constant time): 404 without a
// token configured, so an installation that does not use metrics does not reveal the route, and
// 401 to anyone else. With METRICS_PORT a second, plain HTTP listener on METRICS_HOST (loopback
// by default) serves /metrics for an internal scraper; it asks for the token too when one is set.
//
// The metrics object exists before the live layer and the engine (app.ts hands them its
// observers); the plugin, registered after the live layer, adds the HTTP hook, the gauges that
// read hubs and the database at scrape time, the bus probe and the route.

export type Metrics = {
  readonly registry: Registry;
  /** counts bus messages (live-plugin wraps the bus with it) */
  readonly bus: BusObserver;
  /** the deployment engine reports each dispatched job's lag (seconds after it became due) */
  readonly schedulerDispatched: (lagSeconds: number) => void;
  /** metrics samples written or dropped, by outcome (modules/metrics/metrics-ingest.ts) */
  readonly metricSamples: (outcome: string, count: number) => void;
};

const PREFIX = 'outpost_';
/** how often an instance sends itself a timestamped message over the bus to measure its lag */
const BUS_PROBE_INTERVAL_MS = 15_000;

export function createMetrics(): Metrics {
  const registry = new Registry();
  const published = new Counter({
    name: `${PREFIX}bus_messages_published_total`,
    help: 'Messages this instance published on the bus, by topic',
    labelNames: ['topic'] as const,
    registers: [registry],
  });
  const received = new Counter({
    name: `${PREFIX}bus_messages_received_total`,
    help: 'Bus messages handed to a subscriber on this instance (once per subscriber), by topic',
    labelNames: ['topic'] as const,
    registers: [registry],
  });
  const schedulerLag = new Histogram({
    name: `${PREFIX}scheduler_lag_seconds`,
    help: 'Time from a deployment job becoming due (its schedule, or its creation) to its dispatch by this instance',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [registry],
  });
  const samples = new Counter({
    name: `${PREFIX}metric_samples_total`,
    help: 'Device metrics samples this instance received, by outcome (written, duplicate, too_old, future, overflow, failed)',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  return {
    registry,
    metricSamples: (outcome, count) => samples.inc({ outcome }, count),
    bus: {
      published: (topic: BusTopic) => published.inc({ topic }),
      received: (topic: BusTopic) => received.inc({ topic }),
    },
    schedulerDispatched: (lagSeconds) => schedulerLag.observe(lagSeconds),
  };
}

/** Whether `header` is `Bearer <token>`, compared in constant time (digests of equal length). */
export function bearerMatches(header: string | undefined, token: string): boolean {
  const given = bearerToken(header);
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
  return crypto.timingSafeEqual(digest(given), digest(token)) && given.length > 0;
}

type Answer = { status: number; headers: Record<string, string>; body: string };

const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;

function statusGauge(
  registry: Registry,
  name: string,
  help: string,
  read: () => Promise<StatusCount[]>,
  onError: (err: unknown) => void,
) {
  return new Gauge({
    name,
    help,
    labelNames: ['status'] as const,
    registers: [registry],
    async collect() {
      try {
        const rows = await read();
        for (const status of JOB_STATUSES) {
          this.set({ status }, rows.find((r) => r.status === status)?.count ?? 0);
        }
      } catch (err) {
        // A scrape during a database outage still answers (the pool and process metrics say why).
        onError(err);
      }
    },
  });
}

/** Answers for both listeners: 404 (not configured), 401 (wrong token), 200 (the metrics). */
function createAnswer(registry: Registry, token: string | null) {
  return async (authorization: string | undefined, requireToken: boolean): Promise<Answer> => {
    const text = { 'content-type': 'text/plain; charset=utf-8' };
    if (requireToken && token === null) {
      return { status: 404, headers: text, body: 'Not Found\n' };
    }
    if (token !== null && !bearerMatches(authorization, token)) {
      return {
        status: 401,
        headers: { ...text, 'www-authenticate': 'Bearer realm="metrics"' },
        body: 'Unauthorized\n',
      };
    }
    return {
      status: 200,
      headers: { 'content-type': registry.contentType, 'cache-control': 'no-store' },
      body: await registry.metrics(),
    };
  };
}

function observeHttp(app: FastifyInstance, registry: Registry) {
  const httpDuration = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP request latency by method, route pattern and status class',
    labelNames: ['method', 'route', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern (never the raw URL, which holds ids and query strings).
    const route = request.is404 ? '(unmatched)' : (request.routeOptions.url ?? '(unmatched)');
    httpDuration.observe(
      { method: request.method, route, status_class: statusClass(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });
}

/** The gauges read at scrape time: the hubs of this instance and the database. */
function registerGauges(app: FastifyInstance, registry: Registry, database: Database) {
  new Gauge({
    name: `${PREFIX}agents_connected`,
    help: 'Agent sockets held by this instance',
    registers: [registry],
    collect() {
      this.set(app.agentHub.connectedHere);
    },
  });
  new Gauge({
    name: `${PREFIX}portal_sockets`,
    help: 'Portal sockets open on this instance',
    registers: [registry],
    collect() {
      this.set(app.portalHub.socketCount);
    },
  });
  const logScrapeError = (err: unknown) => app.log.warn({ err }, 'metrics: a database gauge failed');
  statusGauge(
    registry,
    `${PREFIX}deployments`,
    'Deployment jobs by status (all tenants), read from the database at scrape time',
    () => jobsByStatus(database.db),
    logScrapeError,
  );
  statusGauge(
    registry,
    `${PREFIX}device_deployments`,
    'Device deployments by status (all tenants), read from the database at scrape time',
    () => deviceDeploymentsByStatus(database.db),
    logScrapeError,
  );

  // Database: node-postgres pool use; PGlite is one in-process connection with no pool.
  new Gauge({
    name: `${PREFIX}database_info`,
    help: 'The database driver in use (postgres: a connection pool; pglite: embedded, one connection)',
    labelNames: ['kind'] as const,
    registers: [registry],
  }).set({ kind: database.kind }, 1);
  const client = (database.db as unknown as { $client?: unknown }).$client;
  if (client instanceof pg.Pool) {
    const pool = client;
    for (const [name, help, read] of [
      ['total', 'Connections the pool holds (idle and in use)', () => pool.totalCount],
      ['idle', 'Connections the pool holds that are idle', () => pool.idleCount],
      ['waiting', 'Queries waiting for a pool connection', () => pool.waitingCount],
      ['max', 'The most connections the pool opens', () => pool.options.max ?? 10],
    ] as const) {
      new Gauge({
        name: `${PREFIX}db_pool_${name}`,
        help,
        registers: [registry],
        collect() {
          this.set(read());
        },
      });
    }
  }
}

/**
 * Bus lag: the bus's messages carry no timestamps, so each instance sends itself a
 * timestamped probe now and then and measures how long it took to come back.
 */
function startBusProbe(app: FastifyInstance, registry: Registry) {
  const busLag = new Histogram({
    name: `${PREFIX}bus_lag_seconds`,
    help: 'Time from publishing a probe on the bus to receiving it back on this instance',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
    registers: [registry],
  });
  const instanceId = crypto.randomUUID();
  const unsubscribe = app.bus.subscribe('metrics.probe', (m) => {
    if (m.instanceId === instanceId) {
      busLag.observe(Math.max(0, Date.now() - m.sentAt) / 1000);
    }
  });
  const probe = () => {
    app.bus.publish('metrics.probe', { instanceId, sentAt: Date.now() }).catch((err: unknown) => {
      app.log.warn({ err }, 'metrics: the bus probe could not be published');
    });
  };
  const prober = setInterval(probe, BUS_PROBE_INTERVAL_MS);
  prober.unref();
  return {
    probe,
    stop() {
      clearInterval(prober);
      unsubscribe();
    },
  };
}

/** The internal listener (METRICS_PORT): GET /metrics and nothing else. */
async function listenInternal(
  app: FastifyInstance,
  port: number,
  host: string,
  answer: ReturnType<typeof createAnswer>,
): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not Found\n');
      return;
    }
    answer(req.headers.authorization, false).then(
      (a) => res.writeHead(a.status, a.headers).end(a.body),
      (err: unknown) => {
        app.log.error({ err }, 'metrics: scrape failed');
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}

export const metricsPlugin = fp(
  (app, opts: { metrics: Metrics; config: Config; database: Database }, done) => {
    const { metrics, config, database } = opts;
    const { token, port, host } = config.metrics;
    const enabled = token !== null || port !== null;
    const { registry } = metrics;
    const answer = createAnswer(registry, token);

    // Registered even when metrics are off, so /metrics is a 404 rather than the SPA's index.html.
    // Not part of the API: left out of the OpenAPI document.
    app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
      const a = await answer(request.headers.authorization, true);
      return reply.code(a.status).headers(a.headers).send(a.body);
    });
    if (!enabled) {
      done();
      return;
    }

    collectDefaultMetrics({ register: registry });
    observeHttp(app, registry);
    registerGauges(app, registry, database);
    const busProbe = startBusProbe(app, registry);

    // The internal listener (METRICS_PORT), up before the server reports ready.
    let internal: http.Server | null = null;
    app.addHook('onReady', async () => {
      busProbe.probe();
      if (port === null) {
        return;
      }
      internal = await listenInternal(app, port, host, answer);
      app.log.info({ host, port }, 'metrics listening on the internal port');
    });
    app.decorate('metricsAddress', () => {
      const address = internal?.address();
      return typeof address === 'object' && address ? { host: address.address, port: address.port } : null;
    });
    app.addHook('onClose', async () => {
      busProbe.stop();
      const server = internal;
      if (server) {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeAllConnections();
        await closed;
      }
    });
    done();
  },
  { name: 'metrics', dependencies: ['live'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the internal metrics listener (METRICS_PORT) is bound; null when there is none. */
    metricsAddress?: () => { host: string; port: number } | null;
  }
}
