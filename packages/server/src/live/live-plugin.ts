import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { SessionTokens } from '../modules/auth/session-token';
import { createMemoryBus } from './bus';
import type { Bus } from './bus';
import { createRedisBus } from './bus-redis';
import { createAgentGateway } from './agent-gateway';
import type { AgentGateway } from './agent-gateway';
import { createPortalHub } from './portal-socket';
import type { PortalHub } from './portal-socket';

// The live layer (ARCHITECTURE §4): the bus, the portal socket hub (WS /api/ws) and the agent
// gateway (WS /api/agent/ws), put on the instance for later modules:
//   app.bus           publish/subscribe across instances
//   app.portalHub     app.portalHub.send(tenantId, deploymentKey(id), 'deployment_update', {...})
//   app.agentGateway  app.agentGateway.sendCommand({tenantId, deviceId, command}) → waitForResult(id, ms)
export const livePlugin = fp(
  async (app, opts: { db: Db; config: Config; tokens: SessionTokens; pingIntervalMs?: number }) => {
    const bus = opts.config.redisUrl
      ? await createRedisBus(opts.config.redisUrl, opts.config.redisChannelPrefix, app.log)
      : createMemoryBus();
    const hub = createPortalHub({
      app,
      db: opts.db,
      bus,
      tokens: opts.tokens,
      log: app.log,
      pingIntervalMs: opts.pingIntervalMs,
    });
    const gateway = createAgentGateway({
      app,
      db: opts.db,
      bus,
      hub,
      log: app.log,
      options: opts.config.agents,
    });
    await bus.ready();
    app.decorate('bus', bus);
    app.decorate('portalHub', hub);
    app.decorate('agentGateway', gateway);
    app.addHook('preClose', async () => {
      await gateway.close();
      await hub.close();
    });
    app.addHook('onClose', async () => {
      await bus.close();
    });
    app.log.info({ bus: bus.kind }, 'live updates ready');
  },
  { name: 'live', dependencies: ['auth'] },
);

declare module 'fastify' {
  interface FastifyInstance {
    bus: Bus;
    portalHub: PortalHub;
    agentGateway: AgentGateway;
  }
}
