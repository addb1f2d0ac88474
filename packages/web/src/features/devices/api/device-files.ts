import { useMutation, useQuery } from '@tanstack/react-query';
import type { FileTransfer, FsListing } from '@outpost/contract/file-transfers';
import { messages } from '@outpost/contract/messages';
import { API_BASE, ApiError, UNAUTHORIZED_EVENT, api } from '../../../lib/api-client';
import { filenameOf } from '../../../lib/download';
import { tokenStore } from '../../../lib/storage';

// File transfer on the device detail's Files tab (docs/product/remote-access.md#file-transfer):
// a folder's listing (the agent answers live), downloads followed until their bytes are on the
// server, uploads sent as the request body (application/octet-stream, streamed by the browser).

export const deviceFilesKey = (deviceId: number, path: string) => ['device-files', deviceId, path] as const;

export function useDeviceFiles(deviceId: number, path: string) {
  return useQuery({
    queryKey: deviceFilesKey(deviceId, path),
    queryFn: ({ signal }) => api.get<FsListing>(`/customer/devices/${deviceId}/files`, { path }, signal),
    retry: false,
    staleTime: 10_000,
  });
}

export const getTransfer = (id: string) => api.get<FileTransfer>(`/customer/file-transfers/${id}`);

export function useStartDownload(deviceId: number) {
  return useMutation({
    mutationFn: (path: string) =>
      api.post<FileTransfer>(`/customer/devices/${deviceId}/files/download`, { path }),
  });
}

export function useCancelTransfer() {
  return useMutation({
    mutationFn: (id: string) => api.post<FileTransfer>(`/customer/file-transfers/${id}/cancel`),
  });
}

async function refusal(res: Response, token: string | null): Promise<ApiError> {
  if (res.status === 401 && token) {
    window.dispatchEvent(new Event(UNAUTHORIZED_EVENT));
  }
  let error: string | undefined;
  try {
    error = ((await res.json()) as { error?: string }).error;
  } catch {
    error = undefined;
  }
  return new ApiError(error || messages.httpError(res.status), res.status);
}

const authHeaders = (): Record<string, string> => {
  const token = tokenStore.get();
  return token ? { Authorization: `Bearer ${token}` } : {};
};

/** Sends `file` to `path` on the device; resolves with the transfer the device then fetches. */
export async function uploadToDevice(
  deviceId: number,
  input: { file: File; path: string; overwrite: boolean },
): Promise<FileTransfer> {
  const query = new URLSearchParams({ path: input.path, overwrite: String(input.overwrite) });
  const res = await fetch(`${API_BASE}/customer/devices/${deviceId}/files/upload?${query.toString()}`, {
    method: 'POST',
    headers: { ...authHeaders(), 'Content-Type': 'application/octet-stream' },
    body: input.file,
  });
  if (!res.ok) {
    throw await refusal(res, tokenStore.get());
  }
  return ((await res.json()) as { data: FileTransfer }).data;
}

/** Saves a ready download's bytes in the browser (the server removes them once sent). */
export async function saveTransfer(transfer: FileTransfer): Promise<void> {
  const res = await fetch(`${API_BASE}/customer/file-transfers/${transfer.id}/content`, {
    headers: authHeaders(),
  });
  if (!res.ok) {
    throw await refusal(res, tokenStore.get());
  }
  const blob = await res.blob();
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filenameOf(res.headers.get('Content-Disposition'), transfer.name);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}
