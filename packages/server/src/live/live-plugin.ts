import fp from 'fastify-plugin';
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { AgentReports } from './agent-reports';
import type { MonitoringReports } from './agent-monitoring';
import type { RemoteReports } from './agent-remote';
import { createAgentHub } from './agent-hub';
import type { AgentHub } from './agent-hub';
import { createMemoryBus, observedBus } from './bus';
import type { Bus, BusObserver } from './bus';
import { createRedisBus } from './bus-redis';
import { createCommandQueue } from './command-queue';
import type { CommandQueue } from './command-queue';
import type { DeviceState } from './device-state';
import { createPortalHub } from './portal-socket';
import type { PortalAccess, PortalHub, SubscriptionAuthorizer } from './portal-socket';

// The live layer (docs/product/agent-protocol.md), put on the instance for the modules and the socket routes
// (registered in app.ts like every other route):
//   app.bus           publish/subscribe across instances
//   app.portalHub     app.portalHub.send(tenantId, deploymentKey(id), 'deployment_update', {...})
//   app.commandQueue  queueCommand(tx, {tenantId, deviceId, command}) → dispatch(deviceId) → waitForResult(id, ms)
//   app.agentHub      the agent sockets held by this instance
export const livePlugin = fp(
  async (
    app,
    opts: {
      db: Db;
      config: Config;
      /** the portal socket's session and subscription checks (modules/auth, modules/devices) */
      portalAccess: PortalAccess;
      /** the device rows the agent sockets change (modules/devices/device-state.service.ts) */
      deviceState: DeviceState;
      pingIntervalMs?: number;
      /** counts bus traffic for the metrics (plugins/metrics.ts) */
      busObserver?: BusObserver;
      /** where the command queue hands agents' results and step progress (the deployment engine) */
      agentReports: AgentReports;
      /** where agents' check states, metrics and crashes go (the monitoring and metrics modules) */
      monitoringReports: MonitoringReports;
      /** remote access: the policy agents are told and their terminal and file answers (modules/remote-access) */
      remoteReports: RemoteReports;
      /** who may follow `deployment:{id}` on the portal socket (the deployments module) */
      authorizeDeployment: SubscriptionAuthorizer;
    },
  ) => {
    const { config } = opts;
    const rawBus = config.redisUrl
      ? await createRedisBus(config.redisUrl, config.redisChannelPrefix, app.log)
      : createMemoryBus();
    const bus = opts.busObserver ? observedBus(rawBus, opts.busObserver) : rawBus;
    const portalHub = createPortalHub({
      access: opts.portalAccess,
      bus,
      log: app.log,
      pingIntervalMs: opts.pingIntervalMs,
      sessionCheckIntervalMs: config.portalSessionCheckMs,
      authorizeDeployment: opts.authorizeDeployment,
    });
    const commandQueue = createCommandQueue({ db: opts.db, bus, log: app.log, reports: opts.agentReports });
    const agentHub = createAgentHub({
      deviceState: opts.deviceState,
      bus,
      portalHub,
      commandQueue,
      monitoring: opts.monitoringReports,
      remote: opts.remoteReports,
      log: app.log,
      options: config.agents,
    });
    await bus.ready();
    app.decorate('bus', bus);
    app.decorate('portalHub', portalHub);
    app.decorate('commandQueue', commandQueue);
    app.decorate('agentHub', agentHub);
    app.addHook('preClose', (done) => {
      agentHub.close();
      commandQueue.close();
      portalHub.close();
      done();
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
    commandQueue: CommandQueue;
    agentHub: AgentHub;
  }
}
