import { eq } from 'drizzle-orm';
import { createEnrollmentToken, enroll, eventually, facts } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';
import { devices } from '@outpost/server/db/schema';
import { RecordingExecutor } from '@outpost/agent/actions/executor';
import { RecordingStepExecutor } from '@outpost/agent/actions/step-executor';
import { createAgent } from '@outpost/agent/agent';
import type { Agent } from '@outpost/agent/agent';
import { createMemoryOutbox } from '@outpost/agent/outbox';
import { deviceConsent } from '@outpost/agent/remote/consent';
import { nodePtySpawner } from '@outpost/agent/remote/pty';
import { createTerminals } from '@outpost/agent/remote/terminals';
import { createSystemBackend } from '@outpost/agent/system-backend';

// The real agent from source with its real terminal (a pseudo-terminal per session), enrolled
// through `enrolVia` and connected to `server` (another instance, in the two-instance test).
// Device actions go to a RecordingExecutor: nothing here changes the machine.

export async function startTerminalAgent(
  server: TestServer,
  adminToken: string,
  hostname: string,
  enrolVia: TestServer = server,
) {
  const enrolToken = (await createEnrollmentToken(enrolVia, adminToken)).token;
  const creds = (await enroll(enrolVia, enrolToken, facts({ hostname, osType: 'linux', osVersion: 'Linux' })))
    .body.data;
  const terminals = createTerminals({
    spawner: nodePtySpawner,
    consent: deviceConsent(new RecordingStepExecutor()),
  });
  const agent: Agent = createAgent({
    server: server.url,
    deviceGuid: creds.device_guid,
    agentSecret: creds.agent_secret,
    outbox: createMemoryOutbox(),
    backend: createSystemBackend({ externalIpUrl: null }),
    executor: new RecordingExecutor(),
    deployments: () => Promise.reject(new Error('no deployments in the terminal tests')),
    remote: { handlers: terminals },
  });
  agent.start();
  const deviceId = await eventually(async () => {
    const [row] = await server.database.db
      .select()
      .from(devices)
      .where(eq(devices.deviceGuid, creds.device_guid));
    return row?.status === 'online' && agent.remote?.policy ? row.id : null;
  }, 30_000);
  return { agent, deviceId, terminals };
}
