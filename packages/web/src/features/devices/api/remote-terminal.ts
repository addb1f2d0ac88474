import { queryOptions, useQuery } from '@tanstack/react-query';
import type { TerminalSessionView } from '@outpost/contract/terminal';
import { messages } from '@outpost/contract/messages';
import { API_BASE, ApiError, api } from '../../../lib/api-client';
import { useUser } from '../../../lib/auth';
import { useRemoteAccess } from '../../../lib/api/remote-access';
import { downloadFrom } from './recording-download';
import { tokenStore } from '../../../lib/storage';

// docs/product/remote-access.md#terminal: what the Terminal tab reads. The tab shows when the
// tenant's settings allow the caller; its socket authenticates with the session token in the
// query string (a browser cannot send headers on a websocket), like the live socket.

export const terminalSessionsKey = (tenantId: number, deviceId: number) =>
  ['terminal-sessions', tenantId, deviceId] as const;

/** The remote access settings, one cache with the settings page and the Files tab (lib/api). */
export const useTerminalAccess = useRemoteAccess;

export function useTerminalSessions(deviceId: number) {
  const user = useUser();
  return useQuery(
    queryOptions({
      queryKey: terminalSessionsKey(user.tenant_id, deviceId),
      queryFn: ({ signal }) =>
        api.get<TerminalSessionView[]>(
          '/customer/terminal-sessions',
          { device_id: deviceId, limit: 50 },
          signal,
        ),
    }),
  );
}

export function terminalPath(deviceId: number, q: { shell: string; cols: number; rows: number }): string {
  const params = new URLSearchParams({
    token: tokenStore.get() ?? '',
    shell: q.shell,
    cols: String(q.cols),
    rows: String(q.rows),
  });
  return `${API_BASE}/customer/devices/${deviceId}/terminal?${params.toString()}`;
}

export function terminalSocketUrl(
  deviceId: number,
  q: { shell: string; cols: number; rows: number },
): string {
  const protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${protocol}//${location.host}${terminalPath(deviceId, q)}`;
}

/**
 * Why the socket could not open: the same request over plain HTTP answers the refusal's message
 * (a browser's websocket never shows the HTTP answer); null when it passes the checks.
 */
export async function terminalRefusal(deviceId: number, q: { shell: string; cols: number; rows: number }) {
  try {
    const res = await fetch(terminalPath(deviceId, q));
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    return body?.error ?? null;
  } catch {
    return null;
  }
}

const recordingPath = (id: string) => `/customer/terminal-sessions/${id}/recording`;

/** The session's asciicast text. */
export async function fetchRecording(id: string, signal?: AbortSignal): Promise<string> {
  const token = tokenStore.get();
  const res = await fetch(`${API_BASE}${recordingPath(id)}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
    signal,
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new ApiError(body?.error ?? messages.httpError(res.status), res.status);
  }
  return res.text();
}

export const downloadRecording = (id: string) => downloadFrom(recordingPath(id), `terminal-${id}.cast`);
