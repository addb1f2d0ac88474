import type { Child } from './lib';

// Pieces of the soak benchmark (soak.ts): the server's log read line by line, its API and its metrics.

type Envelope<T> = { success: boolean; data: T; error?: string };

/** Counts the server's log lines and keeps its errors (level 50 and above, and stderr). */
export function watchServerLog(server: Child): { errorLines: string[]; readonly lines: number } {
  const errorLines: string[] = [];
  let logLines = 0;
  let pending = '';
  server.process.stdout?.on('data', (d: Buffer) => {
    const lines = (pending + String(d)).split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      logLines += 1;
      try {
        if ((JSON.parse(line) as { level?: number }).level! >= 50) {
          errorLines.push(line.slice(0, 2000));
        }
      } catch {
        // not a log line
      }
    }
  });
  server.process.stderr?.on('data', (d: Buffer) => {
    for (const line of String(d)
      .split('\n')
      .filter((l) => l.trim())) {
      errorLines.push(`stderr: ${line.slice(0, 2000)}`);
    }
  });
  return {
    errorLines,
    get lines() {
      return logLines;
    },
  };
}

/** Calls of the server's API as the administrator: `api` answers any status, `must` wants 200. */
export function apiClient(url: string, auth: Record<string, string>) {
  const api = async <T>(method: string, p: string, body?: unknown): Promise<{ status: number; data: T }> => {
    const res = await fetch(url + p, {
      method,
      headers: { ...auth, ...(body !== undefined && { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await res.json().catch(() => null)) as Envelope<T> | null;
    return { status: res.status, data: json?.data as T };
  };
  const must = async <T>(method: string, p: string, body?: unknown): Promise<T> => {
    const res = await api<T>(method, p, body);
    if (res.status !== 200) {
      throw new Error(`${method} ${p}: ${res.status}`);
    }
    return res.data;
  };
  return { api, must };
}

type ListedDevice = { id: number; device_guid: string; os_type: string | null };

/** The first `atLeast` devices of the list (or all there are), a page of 100 at a time. */
export async function listDevices(
  must: ReturnType<typeof apiClient>['must'],
  atLeast: number,
): Promise<ListedDevice[]> {
  const deviceList: ListedDevice[] = [];
  for (let page = 1; deviceList.length < atLeast; page++) {
    const got = await must<{ data: ListedDevice[] }>('GET', `/api/customer/devices?limit=100&page=${page}`);
    if (got.data.length === 0) {
      break;
    }
    deviceList.push(...got.data);
  }
  return deviceList;
}

export type Sample = { at: number; rss: number; heap: number; loopP99: number; cpu: number };

const metric = (text: string, name: string) => {
  const m = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)$`, 'm').exec(text);
  return m ? Number(m[1]) : NaN;
};

/** One reading of the server's process metrics (GET /metrics). */
export async function sampleMetrics(url: string, metricsToken: string): Promise<Sample> {
  const res = await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } });
  const text = await res.text();
  return {
    at: Date.now(),
    rss: metric(text, 'process_resident_memory_bytes'),
    heap: metric(text, 'nodejs_heap_size_used_bytes'),
    loopP99: metric(text, 'nodejs_eventloop_lag_p99_seconds'),
    cpu: metric(text, 'process_cpu_seconds_total'),
  };
}
