import { AGENT_DEVICE_HEADER } from '@outpost/contract/agent-protocol';
import { agentFilePath } from '@outpost/contract/deployments';
import type { Download, FetchFile, FileSource } from '../steps/context';
import { contentDispositionName } from '../steps/sources';

// Where the real agent's deployment files come from: a step's uploaded file from the server
// (GET /api/agent/files/{id} with the device's guid and secret, as the websocket), and an EXE or
// MSI download from its URL. Both only open the transfer: the step library writes the bytes into
// the attempt's private folder itself and checks them against their sha256 while it writes
// (steps/sources.ts; SECURITY.md "The agent's file-handling rules"). A transfer stops when the
// deployment is cancelled.

export type AgentCredentials = { server: string; deviceGuid: string; agentSecret: string };

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

function sourceOf(res: Response): FileSource {
  const body = res.body;
  if (!body) {
    throw new Error('the response had no body');
  }
  return { body, cancel: () => body.cancel() };
}

export function createFileFetcher(credentials: AgentCredentials): FetchFile {
  return async (file, signal) => {
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
    const sha256 = res.headers.get(SHA256_HEADER)?.toLowerCase();
    return { ...sourceOf(res), ...(sha256 ? { sha256 } : {}) };
  };
}

export const downloadUrl: Download = async (url, signal) => {
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
  // after redirects: an https:// URL that lands on http:// is not https any more
  const fileName = contentDispositionName(res.headers.get('content-disposition'));
  return { ...sourceOf(res), finalUrl: res.url || parsed.href, ...(fileName && { fileName }) };
};
