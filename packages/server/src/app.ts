import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import websocket from '@fastify/websocket';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { WS_MAX_PAYLOAD_BYTES } from '@outpost/contract/limits';
import { fastifyTrustProxy } from './config';
import type { Config } from './config';
import type { Database } from './db/client';
import { bindCallerToLog, loggerOptions, requestIdGenerator, requestLoggerFactory } from './lib/logger';
import { accessPlugin, declaredAccess } from './plugins/access';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors';
import { createMetrics, metricsPlugin } from './plugins/metrics';
import { securityHeadersPlugin } from './plugins/security-headers';
import { responseSerializerCompiler } from './plugins/response-serializer';
import { staticPlugin } from './plugins/static';
import { configRoute } from './modules/auth/auth.routes';
import { createOidcVerifier } from './modules/auth/oidc-verifier';
import type { OidcVerifier } from './modules/auth/oidc-verifier';
import { createSessionTokens } from './modules/auth/session-token';
import { healthRoutes } from './modules/health/health.routes';
import { agentSocketRoutes } from './live/agent-socket.routes';
import { connectRedis } from './live/bus-redis';
import { livePlugin } from './live/live-plugin';
import { portalSocketRoutes } from './live/portal-socket.routes';
import { createEnrollGuard } from './live/rate-limit';
import { authenticateAgent } from './modules/agents/agent-auth';
import { agentEnrollRoutes } from './modules/agents/agents.routes';
import { createLocalBlobStore } from './modules/files/blob-store';
import { startCountsCompaction } from './modules/devices/counts-compaction';
import { agentFilesRoutes } from './modules/deployments/deployments.routes';
import { agentScriptRunsRoutes } from './modules/deployments/script-runs.routes';
import { agentTransfersRoutes } from './modules/file-transfers/file-transfers.routes';
import { demoReceiverRoutes } from './modules/demo/demo-receiver.routes';
import { apiTokenAuth } from './modules/api-tokens/api-token-auth';
import { agentReleaseRoutes } from './modules/agent-releases/agent-releases.routes';
import type { ScriptRunner } from './modules/scripts/script-runner';
import { createReleaseStore } from './modules/agent-releases/release-store';
import { createLivePorts, createServices, forwardedPorts } from './services';
import type { Services } from './services';
import { customerRoutes } from './customer-routes';
import type { DemoSetsServices } from './modules/demo/demo-sets';

type Redis = Awaited<ReturnType<typeof connectRedis>>;

export const VERSION = '0.1.0';

export type AppOptions = {
  config: Config;
  database: Database;
  logger?: boolean | FastifyBaseLogger | { level: string };
  /** Where the log goes when `logger` is not given (stdout by default); tests capture it here. */
  logStream?: { write(line: string): void };
  /**
   * Also encode every response through its zod schema and fail on a difference from what
   * fast-json-stringify wrote (plugins/response-serializer.ts). On under the tests (vitest sets
   * NODE_ENV=test); off by default elsewhere, where it would cost what it checks.
   */
  checkResponses?: boolean;
  /** Tests inject a verifier backed by a local key; production builds one from config. */
  googleVerifier?: OidcVerifier | null;
  /** Tests record script runs with their own ScriptRunner; production uses the deployments module's. */
  scriptRunner?: ScriptRunner;
};

const defaultWebDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

/** The error envelope, security headers and the authorisation backstop, in this order. */
async function registerSecurity(app: FastifyInstance): Promise<void> {
  await app.register(errorsPlugin);
  // helmet's headers, computed once, on every response (also those the access backstop below
  // refuses); HSTS over HTTPS only; no-store on /api (plugins/security-headers.ts)
  await app.register(securityHeadersPlugin, {
    contentSecurityPolicy: {
      directives: {
        // The Google Identity Services script and its iframe/button (docs/product/sign-in.md#sign-in-screen).
        'script-src': ["'self'", 'https://accounts.google.com/gsi/client'],
        'frame-src': ["'self'", 'https://accounts.google.com/gsi/'],
        // the portal's own origin ('self' covers its ws:/wss: socket) and Google's sign-in
        'connect-src': ["'self'", 'https://accounts.google.com/gsi/'],
        'style-src': ["'self'", "'unsafe-inline'", 'https://accounts.google.com/gsi/style'],
        'img-src': ["'self'", 'data:', 'https://*.googleusercontent.com'],
        // Plain-HTTP deployments on a LAN must keep working; TLS is the proxy's business.
        'upgrade-insecure-requests': null,
      },
    },
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    noStorePrefix: '/api',
  });
  // The authorisation backstop (plugins/access.ts): every /api route declares config.access,
  // enforced by one hook. First, so it sees every route; the API docs are public.
  await app.register(accessPlugin, { publicPrefixes: ['/api/docs'] });
  // Once the backstop has resolved the session, the request's log lines carry tenant and user.
  app.addHook('onRequest', (request, _reply, done) => {
    const access = declaredAccess(request);
    if (!request.is404 && (access === 'member' || access === 'admin')) {
      bindCallerToLog(request, request.ctx);
    }
    done();
  });
}

type ApiDeps = {
  config: Config;
  database: Database;
  redis: Redis | null;
  rateLimitPrefix: string;
  services: Services;
  googleVerifier: OidcVerifier | null;
};

/** Every route under /api, in their registration order; each plugin gets the service it calls. */
async function registerApiRoutes(app: FastifyInstance, deps: ApiDeps): Promise<void> {
  const { config, database, redis, rateLimitPrefix, services, googleVerifier } = deps;
  const authOptions = { service: services.auth, config, googleVerifier, version: VERSION };
  await app.register(
    async (api) => {
      await api.register(healthRoutes, { service: services.health });
      // Live sockets (docs/product/live-updates.md#server-side): WS /api/ws for the portal, WS /api/agent/ws for agents.
      await api.register(portalSocketRoutes);
      await api.register(agentSocketRoutes, {
        authenticate: (deviceGuid, secret) => authenticateAgent(database.db, deviceGuid, secret),
        limits: config.agents,
        redis,
        redisPrefix: rateLimitPrefix,
      });
      await api.register(configRoute, authOptions);
      // /api/agent/*: agents authenticate with enrolment tokens and device secrets, not sessions.
      await api.register(agentEnrollRoutes, {
        service: services.agents,
        prefix: '/agent',
        guard: createEnrollGuard(redis, rateLimitPrefix, config.enroll),
      });
      await api.register(agentFilesRoutes, { service: services.deployments, prefix: '/agent' });
      await api.register(agentScriptRunsRoutes, { service: services.scriptRuns, prefix: '/agent' });
      await api.register(agentReleaseRoutes, { service: services.agentReleases, prefix: '/agent' });
      await api.register(agentTransfersRoutes, { service: services.fileTransfers, prefix: '/agent' });
      // the demo's local webhook receiver, for its notification channel (modules/demo/demo-receiver.routes.ts)
      if (config.demo) {
        await api.register(demoReceiverRoutes, { prefix: '/demo' });
      }
      await api.register(customerRoutes, { prefix: '/customer', services, config, authOptions });
    },
    { prefix: '/api' },
  );
}

/**
 * Each instance's timers (the deployment scheduler, policies, the notification outbox, the alert
 * sweep, the metrics job) start once it is ready and stop before it closes.
 */
function startTimers(app: FastifyInstance, services: Services) {
  app.addHook('onReady', (done) => {
    services.engine.start();
    services.policyScheduler.start();
    services.notificationOutbox.start();
    services.alertSweep.start();
    services.metricsHistory.start();
    services.fileTransfers.start();
    done();
  });
  app.addHook('preClose', async () => {
    await services.policyScheduler.stop();
    await services.notificationOutbox.stop();
    await services.alertSweep.stop();
    await services.metricsHistory.stop();
    await services.fileTransfers.stop();
    await services.engine.stop();
  });
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    // Credentials are redacted from every logged URL, header and body (lib/logger.ts).
    logger: options.logger ?? { ...loggerOptions(config.logLevel), stream: options.logStream },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Plugins read settings from the database as they register: on a busy small machine with the
    // embedded database that can outlast Fastify's 10 s default, and a slow start is not a failed one.
    pluginTimeout: 60_000,
    // Behind a trusted proxy its X-Request-Id when that is a plain id (lib/logger.ts), else our own.
    genReqId: requestIdGenerator(config.trustProxy !== false),
    // the request id on the lines written only (lib/logger.ts)
    childLoggerFactory: requestLoggerFactory,
    // Requests refused before any route runs answer in the envelope too (plugins/errors.ts).
    frameworkErrors,
    clientErrorHandler,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(
    responseSerializerCompiler({ check: options.checkResponses ?? process.env.NODE_ENV === 'test' }),
  );

  const tokens = createSessionTokens(config.sessionSecret);
  const googleVerifier =
    options.googleVerifier !== undefined
      ? options.googleVerifier
      : config.google.clientId
        ? createOidcVerifier({
            jwksUrl: config.google.jwksUrl,
            issuers: config.google.issuers,
            audience: config.google.clientId,
          })
        : null;

  await registerSecurity(app);
  // Rate limits key on the client address; with REDIS_URL they live in Redis, so N instances
  // enforce one limit (docs/product/agent-protocol.md#several-instances).
  const redis = config.redisUrl ? await connectRedis(config.redisUrl, app.log) : null;
  if (redis) {
    app.addHook('onClose', async () => {
      await redis.quit();
    });
  }
  const rateLimitPrefix = `${config.redisChannelPrefix}rate-limit:`;
  // skipOnError: a Redis outage lets requests through rather than refusing every sign-in.
  await app.register(rateLimit, {
    global: false,
    ...(redis && { redis, nameSpace: rateLimitPrefix, skipOnError: true }),
  });
  await app.register(websocket, { options: { maxPayload: WS_MAX_PAYLOAD_BYTES } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Outpost API', version: VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  // API tokens (docs/product/administration.md#api-tokens) are resolved and counted there too
  await app.register(authPlugin, {
    db: database.db,
    tokens,
    apiTokens: apiTokenAuth(app, database.db, config.apiTokenPerMinute),
  });
  // Metrics (plugins/metrics.ts): the bus and the engine report to it from the start.
  const metrics = createMetrics();
  // Live updates and agents (docs/product/agent-protocol.md#commands): the bus, the socket hubs and the command queue.
  // Agents' reports, check states and remote answers reach services built below, on the live
  // layer's command queue and bus, so these ports forward to them (services.ts `forwardedPorts`).
  const ports = forwardedPorts(() => services);
  await app.register(livePlugin, {
    db: database.db,
    config,
    ...createLivePorts({
      database,
      tokens,
      log: app.log,
      afterDevicesChanged: (tenantId, deviceIds) =>
        services.checkDistribution.devicesChanged(tenantId, deviceIds),
    }),
    busObserver: metrics.bus,
    ...ports,
  });
  await app.register(metricsPlugin, { metrics, config, database });

  // Published agent executables (AGENT_RELEASES_DIR): install scripts, downloads and self-updates.
  const releases = createReleaseStore(config.agentReleasesDir, app.log, {
    requireSignature: config.agentRequireSignature,
  });
  // Every service, once (services.ts), on the live layer's bus and command queue.
  const services: Services = createServices({
    config,
    database,
    tokens,
    bus: app.bus,
    commandQueue: app.commandQueue,
    portalHub: app.portalHub,
    log: app.log,
    // Uploaded files (docs/product/packages.md#files); the agent download route shares this store.
    blobStore: createLocalBlobStore(config.blobDir),
    releases,
    ...(redis && { redisState: () => (redis.status === 'ready' ? 'up' : 'down') }),
    onDispatched: metrics.schedulerDispatched,
    onMetricSamples: metrics.metricSamples,
    ...(options.scriptRunner && { scriptRunner: options.scriptRunner }),
  });
  // what the embedded demo makes its device sets through (modules/demo/demo-sets.ts)
  app.decorate('demoSets', {
    tags: services.tags,
    customFields: services.customFields,
    groups: services.groups,
    policies: services.policies,
    windows: services.maintenanceWindows,
    monitoring: {
      channels: services.notificationChannels,
      monitoring: services.monitoring,
      alerts: services.alerts,
    },
  });
  startTimers(app, services);
  const stopCompaction = startCountsCompaction(services.devices, app.log);
  // dynamic groups with status or last-seen conditions (docs/product/device-sets.md#groups)
  const stopGroupSweep = services.membership.startSweep();
  // terminal sessions end (and say why) while the bus and the database are still there
  app.addHook('preClose', async () => {
    await services.terminal.close();
  });
  app.addHook('onClose', (_instance, done) => {
    stopCompaction();
    stopGroupSweep();
    done();
  });
  await registerApiRoutes(app, {
    config,
    database,
    redis,
    rateLimitPrefix,
    services,
    googleVerifier,
  });

  await app.register(staticPlugin, { root: config.webDistDir ?? defaultWebDist });
  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    demoSets: DemoSetsServices;
  }
}
