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
import { bindCallerToLog, loggerOptions, requestIdGenerator } from './lib/logger';
import { accessPlugin, declaredAccess } from './plugins/access';
import { authPlugin } from './plugins/auth';
import { clientErrorHandler, errorsPlugin, frameworkErrors } from './plugins/errors';
import { createMetrics, metricsPlugin } from './plugins/metrics';
import { securityHeadersPlugin } from './plugins/security-headers';
import { responseSerializerCompiler } from './plugins/response-serializer';
import { staticPlugin } from './plugins/static';
import { authRoutes, configRoute } from './modules/auth/auth.routes';
import { createOidcVerifier } from './modules/auth/oidc-verifier';
import type { OidcVerifier } from './modules/auth/oidc-verifier';
import { createSessionTokens } from './modules/auth/session-token';
import { healthRoutes } from './modules/health/health.routes';
import { agentSocketRoutes } from './live/agent-socket.routes';
import { connectRedis } from './live/bus-redis';
import type { AgentReports } from './live/agent-reports';
import { livePlugin } from './live/live-plugin';
import { portalSocketRoutes } from './live/portal-socket.routes';
import { createEnrollGuard } from './live/rate-limit';
import { authenticateAgent } from './modules/agents/agent-auth';
import { agentEnrollRoutes, enrollmentTokenRoutes } from './modules/agents/agents.routes';
import { createLocalBlobStore } from './modules/files/blob-store';
import { filesRoutes } from './modules/files/files.routes';
import { packagesRoutes } from './modules/packages/packages.routes';
import { devicesRoutes } from './modules/devices/devices.routes';
import { startCountsCompaction } from './modules/devices/counts-compaction';
import { deviceActionsRoutes } from './modules/device-actions/device-actions.routes';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { agentFilesRoutes, deploymentsRoutes } from './modules/deployments/deployments.routes';
import { policiesRoutes } from './modules/policies/policies.routes';
import { offlineDevicesRoutes } from './modules/deployments/offline-devices.routes';
import { usersRoutes } from './modules/users/users.routes';
import { sitesRoutes } from './modules/sites/sites.routes';
import { tagsRoutes } from './modules/tags/tags.routes';
import { auditRoutes } from './modules/audit/audit.routes';
import { softwareRoutes } from './modules/software/software.routes';
import { groupsRoutes } from './modules/groups/groups.routes';
import { notificationChannelsRoutes } from './modules/notifications/channels.routes';
import { maintenanceWindowsRoutes } from './modules/maintenance-windows/maintenance-windows.routes';
import { agentReleaseRoutes, agentUpdateRoutes } from './modules/agent-releases/agent-releases.routes';
import { customFieldsRoutes } from './modules/custom-fields/custom-fields.routes';
import { createReleaseStore } from './modules/agent-releases/release-store';
import { createLivePorts, createServices } from './services';
import type { Services } from './services';
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
      await api.register(agentReleaseRoutes, { service: services.agentReleases, prefix: '/agent' });
      await api.register(
        async (customer) => {
          await customer.register(authRoutes, authOptions);
          await customer.register(enrollmentTokenRoutes, { service: services.agents });
          await customer.register(filesRoutes, {
            service: services.files,
            maxUploadBytes: config.maxUploadBytes,
          });
          await customer.register(packagesRoutes, { service: services.packages });
          await customer.register(devicesRoutes, { service: services.devices });
          await customer.register(dashboardRoutes, { service: services.dashboard });
          await customer.register(deviceActionsRoutes, { service: services.deviceActions });
          await customer.register(deploymentsRoutes, { service: services.deployments });
          await customer.register(offlineDevicesRoutes, { service: services.offlineDevices });
          await customer.register(usersRoutes, { service: services.users });
          await customer.register(sitesRoutes, { service: services.sites });
          await customer.register(tagsRoutes, { service: services.tags });
          await customer.register(auditRoutes, { service: services.audit });
          await customer.register(activityRoutes, { service: services.activity });
          await customer.register(agentUpdateRoutes, { service: services.agentUpdate });
          await customer.register(customFieldsRoutes, { service: services.customFields });
          await customer.register(policiesRoutes, { service: services.policies });
          await customer.register(softwareRoutes, { service: services.software });
          await customer.register(groupsRoutes, { service: services.groups });
          await customer.register(maintenanceWindowsRoutes, { service: services.maintenanceWindows });
          await customer.register(notificationChannelsRoutes, { service: services.notificationChannels });
        },
        { prefix: '/customer' },
      );
    },
    { prefix: '/api' },
  );
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config, database } = options;
  const app = Fastify({
    // Credentials are redacted from every logged URL, header and body (lib/logger.ts).
    logger: options.logger ?? { ...loggerOptions(config.logLevel), stream: options.logStream },
    trustProxy: fastifyTrustProxy(config.trustProxy),
    bodyLimit: 1024 * 1024,
    // Behind a trusted proxy its X-Request-Id when that is a plain id (lib/logger.ts), else our own.
    genReqId: requestIdGenerator(config.trustProxy !== false),
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
  await app.register(authPlugin, { db: database.db, tokens });
  // Metrics (plugins/metrics.ts): the bus and the engine report to it from the start.
  const metrics = createMetrics();
  // Live updates and agents (docs/product/agent-protocol.md#commands): the bus, the socket hubs and the command queue.
  // Agents' reports go from the command queue to the deployment engine (live/agent-reports.ts);
  // the engine is built below with the services, on the command queue, so this port forwards to it.
  const agentReports: AgentReports = {
    commandResult: (event) => services.engine.commandResult(event),
    stepProgress: (event) => services.engine.stepProgress(event),
  };
  await app.register(livePlugin, {
    db: database.db,
    config,
    ...createLivePorts({ database, tokens, log: app.log }),
    busObserver: metrics.bus,
    agentReports,
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
  });
  // what the embedded demo makes its device sets through (modules/demo/demo-sets.ts)
  app.decorate('demoSets', {
    tags: services.tags,
    customFields: services.customFields,
    groups: services.groups,
    policies: services.policies,
    windows: services.maintenanceWindows,
  });
  app.addHook('onReady', (done) => {
    services.engine.start();
    services.policyScheduler.start();
    services.notificationOutbox.start();
    done();
  });
  app.addHook('preClose', async () => {
    await services.policyScheduler.stop();
    await services.notificationOutbox.stop();
    await services.engine.stop();
  });
  const stopCompaction = startCountsCompaction(services.devices, app.log);
  // dynamic groups with status or last-seen conditions (docs/product/device-sets.md#groups)
  const stopGroupSweep = services.membership.startSweep();
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
