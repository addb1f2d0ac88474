import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import type WebSocket from 'ws';
import { AGENT_DEVICE_HEADER, AgentMessage } from '@outpost/contract/agent-protocol';
import type {
  AgentCommand,
  CommandResultMessage,
  StepProgressMessage,
} from '@outpost/contract/agent-protocol';

// A stand-in for the server in the agent's deployment tests: the agent websocket (welcome,
// acks, commands), GET /api/agent/files/{id} with the device's credentials, and a few URLs to
// download. Every message the agent sends is checked against the protocol and kept.

/** What the stand-in server answers for /downloads/tool.sh (and /moved/tool.sh after its redirect). */
export const DOWNLOADED_TOOL = '#!/bin/sh\necho downloaded tool ran\n';

export const DEVICE = { deviceGuid: 'device-1', agentSecret: 'secret-1' };

export type FakeServer = {
  url: string;
  /** acked messages in the order they arrived (a resent one appears twice) */
  received: AgentMessage[];
  /** uploaded files by id */
  files: Map<number, Buffer>;
  /** the X-Content-SHA256 header sent with a file, by id (none when absent) */
  fileHashHeaders: Map<number, string>;
  /** the headers of every file request */
  fileRequests: http.IncomingHttpHeaders[];
  command(commandId: string, command: AgentCommand): void;
  progress(commandId: string): StepProgressMessage[];
  result(commandId: string): CommandResultMessage | undefined;
  waitFor<T>(find: () => T | undefined | null | false, timeoutMs?: number): Promise<T>;
  close(): Promise<void>;
};

export async function startFakeServer(): Promise<FakeServer> {
  const received: AgentMessage[] = [];
  const files = new Map<number, Buffer>();
  const fileHashHeaders = new Map<number, string>();
  const fileRequests: http.IncomingHttpHeaders[] = [];
  let socket: WebSocket | null = null;

  const server = http.createServer((req, res) => {
    const url = req.url ?? '';
    const file = /^\/api\/agent\/files\/(\d+)$/.exec(url);
    if (file) {
      fileRequests.push(req.headers);
      const isAgent =
        req.headers[AGENT_DEVICE_HEADER] === DEVICE.deviceGuid &&
        req.headers.authorization === `Bearer ${DEVICE.agentSecret}`;
      const body = files.get(Number(file[1]));
      if (!isAgent || !body) {
        res.writeHead(isAgent ? 404 : 401, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ success: false, error: isAgent ? 'File not found' : 'Unauthorized' }));
        return;
      }
      const hash = fileHashHeaders.get(Number(file[1]));
      res.writeHead(200, {
        'content-type': 'application/octet-stream',
        ...(hash !== undefined && { 'x-content-sha256': hash }),
      });
      res.end(body);
      return;
    }
    if (url === '/moved/tool.sh') {
      res.writeHead(302, { location: '/downloads/tool.sh' });
      res.end();
      return;
    }
    if (url === '/downloads/tool.sh') {
      res.writeHead(200);
      res.end(DOWNLOADED_TOOL);
      return;
    }
    res.writeHead(404);
    res.end('Not Found');
  });
  const wss = new WebSocketServer({ server, path: '/api/agent/ws' });
  wss.on('connection', (ws) => {
    socket = ws;
    ws.on('message', (data: Buffer) => {
      const raw = JSON.parse(data.toString('utf8')) as { type: string };
      if (raw.type === 'hello') {
        ws.send(
          JSON.stringify({
            type: 'welcome',
            protocolVersion: 1,
            deviceGuid: DEVICE.deviceGuid,
            heartbeatIntervalMs: 30_000,
            serverTime: new Date().toISOString(),
          }),
        );
        return;
      }
      const message = AgentMessage.parse(raw);
      if ('messageId' in message) {
        received.push(message);
        ws.send(JSON.stringify({ type: 'ack', messageId: message.messageId }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const fake: FakeServer = {
    url,
    received,
    files,
    fileHashHeaders,
    fileRequests,
    command(commandId, command) {
      if (!socket) {
        throw new Error('no agent is connected');
      }
      socket.send(
        JSON.stringify({ type: 'command', commandId, issuedAt: new Date().toISOString(), command }),
      );
    },
    progress: (commandId) =>
      received.filter(
        (m): m is StepProgressMessage => m.type === 'step_progress' && m.commandId === commandId,
      ),
    result: (commandId) =>
      received.find(
        (m): m is CommandResultMessage => m.type === 'command_result' && m.commandId === commandId,
      ),
    async waitFor(find, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      for (;;) {
        const found = find();
        if (found !== undefined && found !== null && found !== false) {
          return found;
        }
        if (Date.now() > until) {
          throw new Error('waitFor: timed out');
        }
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    async close() {
      for (const client of wss.clients) {
        client.terminate();
      }
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return fake;
}

export const sha256 = (data: Buffer | string) => crypto.createHash('sha256').update(data).digest('hex');
