import { messages } from '@outpost/contract/messages';
import { tokenStore } from './storage';

// docs/product/README.md#conventions — all calls go to the API base with a JSON content type and the bearer token
// from local storage; a non-OK response raises the server's error text or 'HTTP error! status: N'.

export const API_BASE = '/api';

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export function toQueryString(query?: Query): string {
  if (!query) {
    return '';
  }
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v !== undefined && v !== null && v !== '') {
      params.set(k, String(v));
    }
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

/** Fired when the server says the session is no longer valid; the auth provider signs out. */
export const UNAUTHORIZED_EVENT = 'outpost:unauthorized';

type Envelope = { success?: boolean; data?: unknown; error?: string; code?: string };

function parseJson(text: string): Envelope | null {
  try {
    return text ? (JSON.parse(text) as Envelope) : null;
  } catch {
    return null;
  }
}

type RequestOptions = { query?: Query; body?: unknown; signal?: AbortSignal };

async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
  const token = tokenStore.get();
  const headers: Record<string, string> = {};
  if (opts.body !== undefined && !(opts.body instanceof FormData)) {
    headers['Content-Type'] = 'application/json';
  }
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  const res = await fetch(`${API_BASE}${path}${toQueryString(opts.query)}`, {
    method,
    headers,
    body:
      opts.body === undefined
        ? undefined
        : opts.body instanceof FormData
          ? opts.body
          : JSON.stringify(opts.body),
    signal: opts.signal,
  });
  const body = parseJson(await res.text());
  if (!res.ok || body?.success === false) {
    if (res.status === 401 && token) {
      window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    }
    throw new ApiError(body?.error || messages.httpError(res.status), res.status, body?.code);
  }
  return (body?.data ?? body) as T;
}

export const api = {
  get: <T>(path: string, query?: Query, signal?: AbortSignal) => request<T>('GET', path, { query, signal }),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, { body: body ?? {} }),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, { body: body ?? {} }),
  delete: <T>(path: string, body?: unknown) => request<T>('DELETE', path, { body }),
};

export const errorMessage = (err: unknown, fallback: string) =>
  err instanceof Error && err.message ? err.message : fallback;
