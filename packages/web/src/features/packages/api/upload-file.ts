import type { UploadedFile } from '@outpost/contract/files';
import { FILE_FIELD } from '@outpost/contract/files';
import { messages } from '@outpost/contract/messages';
import { API_BASE, ApiError, UNAUTHORIZED_EVENT } from '../../../lib/api-client';
import { tokenStore } from '../../../lib/storage';

type Envelope = { success?: boolean; data?: UploadedFile; error?: string; code?: string };

function parseEnvelope(text: string): Envelope | null {
  try {
    return JSON.parse(text) as Envelope;
  } catch {
    return null;
  }
}

export type UploadProgress = { loaded: number; total: number };

/**
 * POST /customer/files (docs/product/packages.md#calls, multipart field file). XMLHttpRequest rather than fetch, because
 * only it reports upload progress. Resolves to {id, originalFilename, …}; rejects with the
 * server's error text, or 'HTTP error! status: N'.
 */
export function uploadFile(
  file: File,
  opts: { onProgress?: (p: UploadProgress) => void; signal?: AbortSignal } = {},
): Promise<UploadedFile> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}/customer/files`);
    const token = tokenStore.get();
    if (token) {
      xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    }
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) {
        opts.onProgress?.({ loaded: e.loaded, total: e.total });
      }
    };
    xhr.onerror = () => reject(new ApiError('Network error', 0));
    xhr.onabort = () => reject(new ApiError('Upload cancelled', 0));
    xhr.onload = () => {
      const body = parseEnvelope(xhr.responseText);
      if (xhr.status >= 200 && xhr.status < 300 && body?.success !== false && body?.data) {
        resolve(body.data);
        return;
      }
      if (xhr.status === 401 && token) {
        window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
      }
      reject(new ApiError(body?.error || messages.httpError(xhr.status), xhr.status, body?.code));
    };
    opts.signal?.addEventListener('abort', () => xhr.abort());
    const form = new FormData();
    form.append(FILE_FIELD, file, file.name);
    xhr.send(form);
  });
}
