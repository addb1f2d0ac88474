import type { FastifyBaseLogger } from 'fastify';
import type {
  CheckResultsMessage,
  ChecksMessage,
  HelloMessage,
  MetricsMessage,
} from '@outpost/contract/agent-protocol';
import type { AgentConnection } from './agent-connection';
import type { Bus } from './bus';
import type { DeviceRef } from './device-state';

// What the agent sockets hand on about monitoring (docs/product/monitoring.md#checks), as a port
// the monitoring and metrics modules implement (wired in app.ts), so live/ stays transport: the
// check set an agent runs, the check states it reports, its metrics samples, and a restart after
// a crash. The bus topic `agent.checks` reaches the connections whose check set changed.

export type MonitoringReports = {
  /** the device's check set, as its agent runs it */
  checksFor(device: DeviceRef): Promise<ChecksMessage>;
  /** stores changed check states; rejects when it could not, so the message is resent */
  checkResults(device: DeviceRef, message: CheckResultsMessage): Promise<void>;
  /** one minute's sample, buffered and written in batches */
  metrics(device: DeviceRef, message: MetricsMessage): void;
  /** the agent said in its hello that it started again after a crash */
  restartedAfterCrash(
    device: DeviceRef,
    crash: NonNullable<HelloMessage['restartedAfterCrash']>,
  ): Promise<void>;
};

/** Sends a connection that runs checks its current check set. */
export async function sendChecks(reports: MonitoringReports, conn: AgentConnection): Promise<void> {
  if (!conn.takesChecks || !conn.isOpen) {
    return;
  }
  const message = await reports.checksFor(conn.device);
  if (conn.isOpen && message.revision !== conn.checksRevision) {
    conn.checksRevision = message.revision;
    conn.send(message);
  }
}

/** After a welcome: the check set, and the crash the hello reported. */
export async function afterWelcome(
  reports: MonitoringReports,
  conn: AgentConnection,
  hello: HelloMessage,
  log: FastifyBaseLogger,
): Promise<void> {
  if (hello.restartedAfterCrash) {
    await reports
      .restartedAfterCrash(conn.device, hello.restartedAfterCrash)
      .catch((err: unknown) => log.error({ err, deviceId: conn.device.id }, 'crash report failed'));
  }
  await sendChecks(reports, conn);
}

/** `agent.checks`: the check sets of these devices changed; their connections here get the new set. */
export function subscribeChecksTopic(
  bus: Bus,
  local: Map<number, AgentConnection>,
  reports: MonitoringReports,
): () => void {
  return bus.subscribe('agent.checks', ({ deviceIds }) => {
    for (const deviceId of deviceIds) {
      const conn = local.get(deviceId);
      if (conn?.hasHello && conn.takesChecks) {
        conn.enqueue(() => sendChecks(reports, conn));
      }
    }
  });
}
