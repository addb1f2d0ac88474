import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Readable, TransformCallback, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import type {
  AgentRemoteMessage,
  FileReceiveMessage,
  FileSendMessage,
  FileStatusMessage,
} from '@outpost/contract/agent-protocol';
import { absolutePath, describeFsError, hostPlatform, listFolder } from './fs-list';
import type { Platform } from './fs-list';
import type { FilesMessage } from './remote-access';

// File transfer on the agent (docs/agent.md "Remote access"): the bytes never travel on the
// socket. A download streams the file to PUT /api/agent/transfers/{id}; an upload streams GET
// /api/agent/transfers/{id} into a temporary file beside the target, checks its size and sha256,
// and only then renames it into place (refusing to replace a file unless asked). Each side hashes
// what it streams; nothing holds more than a stream chunk. A cancel aborts the request.

export type TransferCredentials = { server: string; deviceGuid: string; agentSecret: string };

type Send = (message: AgentRemoteMessage) => void;

/** Hashes and counts what passes. */
class Hasher extends Transform {
  readonly hash = crypto.createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    callback(null, chunk);
  }
}

/** The server's `{error}` text of a refused request, else its status. */
async function refusal(res: http.IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res) {
    text += String(chunk);
    if (text.length > 8192) {
      break;
    }
  }
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string' && body.error) {
      return body.error;
    }
  } catch {
    // not JSON
  }
  return `the server answered HTTP ${res.statusCode ?? 0}`;
}

function transferRequest(
  creds: TransferCredentials,
  method: 'PUT' | 'GET',
  transferId: string,
  signal: AbortSignal,
  headers: Record<string, string> = {},
): http.ClientRequest {
  const url = new URL(`/api/agent/transfers/${transferId}`, creds.server);
  const client = url.protocol === 'https:' ? https : http;
  return client.request(url, {
    method,
    signal,
    headers: {
      ...headers,
      [AGENT_DEVICE_HEADER]: creds.deviceGuid,
      authorization: `Bearer ${creds.agentSecret}`,
    },
  });
}

const responseOf = (req: http.ClientRequest) =>
  new Promise<http.IncomingMessage>((resolve, reject) => {
    req.once('response', resolve);
    req.once('error', reject);
  });

export const failed = (transferId: string, error: unknown): FileStatusMessage => ({
  type: 'file_status',
  transferId,
  ok: false,
  error: (error instanceof Error ? error.message : String(error)).slice(0, 2000),
});

/** file_send: the file at `path`, streamed to the server. */
export async function sendFile(
  creds: TransferCredentials,
  m: FileSendMessage,
  signal: AbortSignal,
  platform: Platform = hostPlatform(),
): Promise<FileStatusMessage> {
  const file = absolutePath(m.path, platform);
  let size: number;
  try {
    const st = await fs.promises.stat(file);
    if (!st.isFile()) {
      return failed(m.transferId, `Not a file: ${file}`);
    }
    size = st.size;
  } catch (err) {
    return failed(m.transferId, describeFsError(err, file));
  }
  if (size > m.maxBytes) {
    return failed(
      m.transferId,
      `The file is larger than the largest file a transfer moves (${m.maxBytes} bytes)`,
    );
  }
  return putBytes(creds, m.transferId, fs.createReadStream(file), size, signal);
}

/** Streams `source` (`size` bytes) to PUT /api/agent/transfers/{id}, hashing what it sends. */
export async function putBytes(
  creds: TransferCredentials,
  transferId: string,
  source: Readable,
  size: number,
  signal: AbortSignal,
): Promise<FileStatusMessage> {
  const hasher = new Hasher();
  const req = transferRequest(creds, 'PUT', transferId, signal, {
    'content-type': 'application/octet-stream',
    'content-length': String(size),
  });
  const answer = responseOf(req);
  // the request may be refused before the body is sent: the answer decides
  const sent = pipeline(source, hasher, req).catch((err: unknown) => err);
  const res = await answer;
  await sent;
  if (res.statusCode !== 200) {
    return failed(transferId, await refusal(res));
  }
  res.resume();
  return { type: 'file_status', transferId, ok: true, size: hasher.size, sha256: hasher.hash.digest('hex') };
}

/**
 * GET /api/agent/transfers/{id} into the sink (made once the server answers), hashed; throws when the size or the sha256 differ
 * from what the server announced (the caller removes what it wrote).
 */
export async function fetchBytes(
  creds: TransferCredentials,
  m: Pick<FileReceiveMessage, 'transferId' | 'size' | 'sha256'>,
  sink: () => Writable,
  signal: AbortSignal,
): Promise<{ size: number; sha256: string } | { refused: string }> {
  const req = transferRequest(creds, 'GET', m.transferId, signal);
  req.end();
  const res = await responseOf(req);
  if (res.statusCode !== 200) {
    return { refused: await refusal(res) };
  }
  const hasher = new Hasher();
  await pipeline(res, hasher, sink(), { signal });
  const sha256 = hasher.hash.digest('hex');
  if (hasher.size !== m.size) {
    throw new Error('The file arrived with a different size');
  }
  if (sha256 !== m.sha256) {
    throw new Error('Checksum mismatch');
  }
  return { size: hasher.size, sha256 };
}

/** file_receive: the server's bytes into `path`, verified, never replacing a file unless asked. */
export async function receiveFile(
  creds: TransferCredentials,
  m: FileReceiveMessage,
  signal: AbortSignal,
  platform: Platform = hostPlatform(),
): Promise<FileStatusMessage> {
  const target = absolutePath(m.path, platform);
  const paths = platform === 'win32' ? path.win32 : path.posix;
  const folder = paths.dirname(target);
  try {
    if (!(await fs.promises.stat(folder)).isDirectory()) {
      return failed(m.transferId, `Not a folder: ${folder}`);
    }
    const existing = await fs.promises.lstat(target).catch(() => null);
    if (existing?.isDirectory()) {
      return failed(m.transferId, `A folder, not a file: ${target}`);
    }
    if (existing && !m.overwrite) {
      return failed(m.transferId, `A file with this name already exists: ${target}`);
    }
  } catch (err) {
    return failed(m.transferId, describeFsError(err, folder));
  }
  const temp = paths.join(folder, `.${paths.basename(target)}.${m.transferId}.part`);
  try {
    const got = await fetchBytes(
      creds,
      m,
      () => fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }),
      signal,
    );
    if ('refused' in got) {
      return failed(m.transferId, got.refused);
    }
    await placeFile(temp, target, m.overwrite);
    return { type: 'file_status', transferId: m.transferId, ok: true, ...got };
  } catch (err) {
    await fs.promises.rm(temp, { force: true }).catch(() => undefined);
    const code = (err as { code?: string } | null)?.code;
    return failed(m.transferId, code ? describeFsError(err, target) : err);
  }
}

/** Renames the verified temporary file into place; without `overwrite`, an existing file stays. */
async function placeFile(temp: string, target: string, overwrite: boolean): Promise<void> {
  if (overwrite) {
    await fs.promises.rename(temp, target);
    return;
  }
  // link fails when the target appeared meanwhile: nothing is replaced
  await fs.promises.link(temp, target);
  await fs.promises.rm(temp, { force: true });
}

/** The files handler of RemoteHandlers: listings, transfers, cancels. */
export function createFileHandlers(creds: TransferCredentials, platform: Platform = hostPlatform()) {
  const running = new Map<string, AbortController>();

  function transfer(
    transferId: string,
    send: Send,
    work: (signal: AbortSignal) => Promise<FileStatusMessage>,
  ) {
    const abort = new AbortController();
    running.set(transferId, abort);
    work(abort.signal)
      .catch((err: unknown) => failed(transferId, err))
      .then((status) => {
        running.delete(transferId);
        send(abort.signal.aborted ? failed(transferId, 'Cancelled') : status);
      })
      .catch(() => undefined);
  }

  return (message: FilesMessage, send: Send): void => {
    switch (message.type) {
      case 'fs_list':
        void listFolder(message.requestId, message.path, platform).then(send);
        return;
      case 'file_send':
        transfer(message.transferId, send, (signal) => sendFile(creds, message, signal, platform));
        return;
      case 'file_receive':
        transfer(message.transferId, send, (signal) => receiveFile(creds, message, signal, platform));
        return;
      case 'file_cancel':
        running.get(message.transferId)?.abort();
        return;
    }
  };
}
