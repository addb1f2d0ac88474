import { createWriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import { agentFilePath } from '@outpost/contract/deployments';
import { sha256File } from '../steps/context';
import type { Download, FetchFile } from '../steps/context';

// Where the real agent's deployment files come from: a step's uploaded file from the server
// (GET /api/agent/files/{id} with the device's guid and secret, as the websocket), and an EXE or
// MSI download from its URL. Both stream to disk and stop when the deployment is cancelled.
// Every uploaded file is checked against its sha256 before anything uses it (by the step
// library against the reference's, else here against the server's header); a file with
// neither is refused, so no unverified file ever runs.

export type AgentCredentials = { server: string; deviceGuid: string; agentSecret: string };

/** A file name safe on every platform, keeping the extension Windows needs (.exe, .ps1 …). */
export function localFileName(original: string, fallback: string): string {
  const base = original.split(/[\\/]/).pop() ?? '';
  const name = base
    .replace(/[^A-Za-z0-9._ -]/g, '_')
    .replace(/^[.\s]+/, '')
    .trim();
  return name === '' ? fallback : name.slice(-200);
}

async function streamTo(body: ReadableStream<Uint8Array> | null, dest: string, signal: AbortSignal) {
  if (!body) {
    throw new Error('the response had no body');
  }
  try {
    await pipeline(Readable.fromWeb(body), createWriteStream(dest, { mode: 0o600 }), { signal });
  } catch (err) {
    await rm(dest, { force: true });
    throw err;
  }
}

/** The server's `{error}` text of a refused request, else its status line. */
async function refusal(res: Response): Promise<string> {
  const text = await res.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { error?: unknown };
    if (typeof body.error === 'string' && body.error !== '') {
      return body.error;
    }
  } catch {
    // not JSON
  }
  return `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
}

/** The server's hash of a file it sends (the file reference in the step carries it too). */
const SHA256_HEADER = 'x-content-sha256';

export function createFileFetcher(credentials: AgentCredentials): FetchFile {
  return async (file, signal, dir) => {
    const url = new URL(agentFilePath(file.id), credentials.server);
    const res = await fetch(url, {
      headers: {
        [AGENT_DEVICE_HEADER]: credentials.deviceGuid,
        authorization: `Bearer ${credentials.agentSecret}`,
      },
      signal,
    });
    if (res.status !== 200) {
      throw new Error(`the server refused it: ${await refusal(res)}`);
    }
    // The step library checks the reference's sha256; without one, the server's header is checked
    // here; with neither the file is not used.
    const expected = file.sha256 === undefined ? res.headers.get(SHA256_HEADER)?.toLowerCase() : undefined;
    if (file.sha256 === undefined && !expected) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error('the server gave no sha256 checksum for it, so it cannot be verified');
    }
    const dest = path.join(dir, localFileName(file.originalFilename, `file-${file.id}`));
    await streamTo(res.body, dest, signal);
    if (expected !== undefined && (await sha256File(dest)) !== expected) {
      await rm(dest, { force: true });
      throw new Error('it does not match its sha256 checksum; not used');
    }
    return dest;
  };
}

export const downloadUrl: Download = async (url, dest, signal) => {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new Error('not a valid URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    throw new Error('only http and https URLs can be downloaded');
  }
  const res = await fetch(parsed, { redirect: 'follow', signal });
  if (!res.ok) {
    await res.body?.cancel().catch(() => undefined);
    throw new Error(`HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`);
  }
  await streamTo(res.body, dest, signal);
};
