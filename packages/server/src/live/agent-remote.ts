import type { FastifyBaseLogger } from 'fastify';
import { remoteMessages } from '@outpost/contract/remote-access';
import type {
  AgentRemoteMessage,
  RemotePolicyMessage,
  ServerRemoteMessage,
} from '@outpost/contract/agent-protocol';
import type { AgentConnection } from './agent-connection';
import type { Bus } from './bus';
import type { DeviceRef } from './device-state';

// Remote access over the agent sockets (docs/product/remote-access.md), as a port the
// remote-access, terminal and file-transfer modules implement (wired in app.ts), so live/ stays
// transport. A module reaches a device's agent wherever its socket is by publishing `agent.remote`
// (the instance holding the socket sends the message on, in the order published); the agent's
// answers go to `RemoteReports.fromAgent` on that instance, which publishes them on
// `remote.reply` under the session's, request's or transfer's key for the instance that waits.
// Only agents whose hello listed the `remote` capability are sent anything.

export type RemoteReports = {
  /** what the device's tenant allows it (sent after the welcome and on `agent.remote_policy`) */
  policyFor(device: DeviceRef): Promise<RemotePolicyMessage>;
  /** a terminal, listing or transfer message from the device's agent */
  fromAgent(device: DeviceRef, message: AgentRemoteMessage): Promise<void>;
};

/** Sends a connection that takes remote access its tenant's policy. */
export async function sendRemotePolicy(reports: RemoteReports, conn: AgentConnection): Promise<void> {
  if (!conn.takesRemote || !conn.isOpen) {
    return;
  }
  const policy = await reports.policyFor(conn.device);
  if (conn.isOpen) {
    conn.send(policy);
  }
}

/**
 * `agent.remote`: a message for a device whose socket may be here; `agent.remote_policy`: a
 * tenant's settings changed, its agents here get the new policy.
 */
export function subscribeRemoteTopics(
  bus: Bus,
  local: Map<number, AgentConnection>,
  reports: RemoteReports,
  log: FastifyBaseLogger,
): Array<() => void> {
  return [
    bus.subscribe('agent.remote', ({ deviceId, message }) => {
      const conn = local.get(deviceId);
      if (conn?.hasHello && conn.takesRemote && conn.isOpen) {
        conn.send(message);
      } else if (conn?.hasHello && !conn.takesRemote && message.type === 'terminal_open') {
        // an agent without the capability: the waiting side hears why at once
        void reports
          .fromAgent(conn.device, {
            type: 'terminal_exit',
            sessionId: message.sessionId,
            reason: 'refused',
            message: remoteMessages.agentTooOld,
          })
          .catch((err: unknown) => log.error({ err, deviceId }, 'remote refusal failed'));
      }
    }),
    bus.subscribe('agent.remote_policy', ({ tenantId }) => {
      for (const conn of local.values()) {
        if (conn.device.tenantId === tenantId && conn.hasHello && conn.takesRemote) {
          conn.enqueue(() =>
            sendRemotePolicy(reports, conn).catch((err: unknown) =>
              log.error({ err, deviceId: conn.device.id }, 'remote policy failed'),
            ),
          );
        }
      }
    }),
  ];
}

/** A socket that took remote access closed: the sessions on it end, on whichever instance. */
export function remoteConnectionClosed(
  bus: Pick<Bus, 'publish'>,
  conn: AgentConnection,
  log: FastifyBaseLogger,
) {
  if (conn.hasHello && conn.takesRemote) {
    bus
      .publish('agent.remote_closed', { deviceId: conn.device.id })
      .catch((err: unknown) => log.error({ err, deviceId: conn.device.id }, 'remote close failed'));
  }
}

/** The key a reply travels under on `remote.reply`: its session, request or transfer. */
export function replyKey(message: AgentRemoteMessage): string {
  switch (message.type) {
    case 'terminal_started':
    case 'terminal_output':
    case 'terminal_exit':
      return message.sessionId;
    case 'fs_list_result':
      return message.requestId;
    case 'file_status':
      return message.transferId;
  }
}

export type { ServerRemoteMessage };
