import { messages } from '@outpost/contract/messages';
import { API_BASE, ApiError, toQueryString, UNAUTHORIZED_EVENT } from './api-client';
import type { Query } from './api-client';
import { tokenStore } from './storage';

// CSV exports (docs/product/device-sets.md#exports): the API authenticates with the bearer token,
// which a plain link cannot carry, so the file is fetched with it (Accept: text/csv) and handed to
// the browser as a download from a blob.

/** The name the server gave the file (Content-Disposition), or `fallback`. */
export function filenameOf(disposition: string | null, fallback: string): string {
  const match = /filename="?([^";]+)"?/i.exec(disposition ?? '');
  return match?.[1] ?? fallback;
}

/** Fetches `path` as CSV with the caller's session and saves it; throws ApiError on a refusal. */
export async function downloadCsv(
  path: string,
  query: Query | undefined,
  fallbackName: string,
): Promise<void> {
  const token = tokenStore.get();
  const headers: Record<string, string> = { Accept: 'text/csv' };
  if (token) {
    headers.Authorization = `Bearer ${token}`;
  }
  const res = await fetch(`${API_BASE}${path}${toQueryString(query)}`, { headers });
  if (!res.ok) {
    if (res.status === 401 && token) {
      window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
    }
    let error: string | undefined;
    try {
      error = ((await res.json()) as { error?: string }).error;
    } catch {
      error = undefined;
    }
    throw new ApiError(error || messages.httpError(res.status), res.status);
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filenameOf(res.headers.get('Content-Disposition'), fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
