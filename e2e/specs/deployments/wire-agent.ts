import type { APIRequestContext } from '@playwright/test';
import WebSocket from 'ws';
import { AGENT_DEVICE_HEADER, AGENT_PROTOCOL_VERSION } from '@outpost/contract/agent-protocol';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import { E2E_BASE_URL } from '../../fixtures/env';

// An agent speaking the wire protocol from the test itself, for what the simulator does not do on
// request: take its work, start a step and go away mid-run (docs/architecture.md, "Devices a job
// waits for").

type Envelope<T> = { success: boolean; data: T; error?: string };
type Message = { type: string; [key: string]: unknown };

export async function wireAgent(request: APIRequestContext, token: string, hostname: string) {
  const created = await request.post('/api/customer/agents/enrollment-tokens', {
    headers: { authorization: `Bearer ${token}` },
    data: {},
  });
  const enrolled = await request.post('/api/agent/enroll', {
    data: {
      token: ((await created.json()) as Envelope<{ token: string }>).data.token,
      facts: { hostname, osType: 'windows', osVersion: 'Windows 11', agentVersion: '1.0.0' },
    },
  });
  if (!enrolled.ok()) {
    throw new Error(`enroll: ${enrolled.status()} ${await enrolled.text()}`);
  }
  const creds = ((await enrolled.json()) as Envelope<EnrollResult>).data;
  const ws = new WebSocket(`${E2E_BASE_URL.replace(/^http/, 'ws')}/api/agent/ws`, {
    headers: { [AGENT_DEVICE_HEADER]: creds.device_guid, authorization: `Bearer ${creds.agent_secret}` },
  });
  const received: Message[] = [];
  const waiters: { match: (m: Message) => boolean; resolve: (m: Message) => void }[] = [];
  ws.on('message', (d: Buffer) => {
    const m = JSON.parse(d.toString()) as Message;
    received.push(m);
    for (const w of waiters.filter((x) => x.match(m))) {
      waiters.splice(waiters.indexOf(w), 1);
      w.resolve(m);
    }
  });
  const waitFor = (match: (m: Message) => boolean) =>
    new Promise<Message>((resolve) => {
      const seen = received.find(match);
      if (seen) {
        resolve(seen);
      } else {
        waiters.push({ match, resolve });
      }
    });
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve());
    ws.once('error', reject);
  });
  ws.send(
    JSON.stringify({
      type: 'hello',
      protocolVersion: AGENT_PROTOCOL_VERSION,
      agentVersion: '1.0.0',
      hostname,
      osType: 'windows',
      osVersion: 'Windows 11',
      sessions: [],
    }),
  );
  await waitFor((m) => m.type === 'welcome');
  return {
    guid: creds.device_guid,
    /** the run_deployment command's id, once the server handed it over */
    async takeWork(): Promise<string> {
      const m = await waitFor(
        (x) => x.type === 'command' && (x.command as { kind?: string }).kind === 'run_deployment',
      );
      return m.commandId as string;
    },
    /** reports step 1 running, as an agent does when it starts it */
    async startStep(commandId: string) {
      ws.send(
        JSON.stringify({
          type: 'step_progress',
          messageId: `e2e-${commandId}`,
          commandId,
          stepOrder: 1,
          status: 'running',
          seq: 1,
          attempt: 1,
          startedAt: new Date().toISOString(),
        }),
      );
      await waitFor((m) => m.type === 'ack' && m.messageId === `e2e-${commandId}`);
    },
    /** goes away (a clean close: offline at once, without the grace period) */
    close: () => ws.close(1000),
  };
}
