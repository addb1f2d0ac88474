import { messages } from '@outpost/contract/messages';
import { API_BASE, ApiError } from '../../../lib/api-client';
import { filenameOf } from '../../../lib/download';
import { tokenStore } from '../../../lib/storage';

// A file the API serves to a signed-in caller (a terminal recording): fetched with the bearer
// token, which a plain link cannot carry, and handed to the browser as a download.
export async function downloadFrom(path: string, fallbackName: string): Promise<void> {
  const token = tokenStore.get();
  const res = await fetch(`${API_BASE}${path}`, {
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: string } | null;
    throw new ApiError(body?.error ?? messages.httpError(res.status), res.status);
  }
  const url = URL.createObjectURL(await res.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = filenameOf(res.headers.get('Content-Disposition'), fallbackName);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
