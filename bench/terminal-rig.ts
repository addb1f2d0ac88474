// The remote terminal benchmark's ends (bench/terminal.ts): a server as the test helpers see it,
// a protocol-level agent that echoes input and streams output, and the text it streams.
import crypto from 'node:crypto';
import { AGENT_CAPABILITIES } from '../packages/contract/src/agent-protocol';
import { createEnrollmentToken, enroll, facts, onlineAgent } from '../packages/server/test/support/live';
import type { AgentSocket } from '../packages/server/test/support/live';

/** A server's address and a request function for the test helpers. */
export type Instance = {
  url: string;
  request: <T>(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ) => Promise<{ status: number; body: T }>;
};

export type Rig = { deviceId: number; agent: AgentSocket };

export function instanceAt(url: string): Instance {
  return {
    url,
    async request(method, route, opts = {}) {
      const res = await fetch(`${url}${route}`, {
        method,
        headers: {
          ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}),
          ...opts.headers,
        },
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      });
      return { status: res.status, body: (await res.json()) as never };
    },
  };
}

/** A protocol-level agent that echoes input and can stream output, with remote access. */
export async function echoAgent(
  server: Instance,
  browserSide: Instance,
  admin: string,
  name: string,
): Promise<Rig> {
  const token = (await createEnrollmentToken(browserSide, admin)).token;
  const creds = (
    await enroll(browserSide, token, facts({ hostname: name, osType: 'linux', machineId: name }))
  ).body.data;
  const agent = await onlineAgent(server.url, creds, {
    hostname: name,
    osType: 'linux',
    capabilities: [AGENT_CAPABILITIES.remote],
  });
  await agent.waitFor('remote_policy');
  const outSeq = new Map<string, number>();
  agent.ws.on('message', (raw: Buffer) => {
    const m = JSON.parse(raw.toString('utf8')) as { type: string; sessionId?: string; data?: string };
    if (m.type === 'terminal_open') {
      outSeq.set(m.sessionId!, 0);
      agent.send({ type: 'terminal_started', sessionId: m.sessionId!, shell: 'bench' });
    } else if (m.type === 'terminal_input') {
      const seq = (outSeq.get(m.sessionId!) ?? 0) + 1;
      outSeq.set(m.sessionId!, seq);
      agent.send({ type: 'terminal_output', sessionId: m.sessionId!, seq, data: m.data! });
    }
  });
  const list = await browserSide.request<{ data: { data: Array<{ id: number; hostname: string }> } }>(
    'GET',
    `/api/customer/devices?search=${name}`,
    { token: admin },
  );
  const deviceId = list.body.data.data.find((d) => d.hostname === name)!.id;
  return { deviceId, agent };
}

/**
 * What a terminal streams: text, here lines of a long listing with colour codes (`ls -l --color`).
 * Random bytes (the runs before 2026-11-27 18:30) are not terminal output: every invalid byte
 * becomes U+FFFD in the recording, three bytes each.
 */
export function terminalText(size: number): Buffer {
  const lines: string[] = [];
  let total = 0;
  for (let i = 0; total < size; i += 1) {
    const name = crypto.randomBytes(6).toString('hex');
    const bytes = String(crypto.randomInt(100, 9_999_999)).padStart(8);
    const line = `-rw-r--r--  1 outpost staff ${bytes} Nov 27 18:${String(i % 60).padStart(2, '0')} \x1b[01;34m${name}\x1b[0m.log\r\n`;
    lines.push(line);
    total += Buffer.byteLength(line);
  }
  return Buffer.from(lines.join('')).subarray(0, size);
}
