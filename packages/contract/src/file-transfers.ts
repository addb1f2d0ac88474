import { z } from 'zod';
import { FsEntry } from './agent-remote';

// File transfer to and from devices (docs/product/remote-access.md#file-transfer): browsing a
// device's folders, downloads (device → browser) and uploads (browser → device). The bytes go
// through a temporary blob on the server; the agent streams them over HTTP with its credentials.

export const TRANSFER_DIRECTIONS = ['download', 'upload'] as const;
export type TransferDirection = (typeof TRANSFER_DIRECTIONS)[number];

/**
 * pending: the agent was asked and the bytes are on their way; ready: a download's bytes are on
 * the server, verified, for the browser to fetch; completed: fetched by the browser (download) or
 * written on the device (upload); failed and cancelled end it.
 */
export const TRANSFER_STATUSES = ['pending', 'ready', 'completed', 'failed', 'cancelled'] as const;
export type TransferStatus = (typeof TRANSFER_STATUSES)[number];
export const isTransferOver = (s: TransferStatus) => s === 'completed' || s === 'failed' || s === 'cancelled';

/** How long the bytes of a transfer stay on the server at most. */
export const TRANSFER_RETENTION_MS = 60 * 60 * 1000;
/** How long a listing waits for the agent's answer. */
export const FS_LIST_TIMEOUT_MS = 15_000;

const devicePath = z
  .string()
  .max(4096, 'The path is longer than 4096 characters')
  .refine((p) => !p.includes('\0'), 'The path holds a NUL character');

export const FsListQuery = z.object({ path: devicePath.optional() });
export type FsListQuery = z.infer<typeof FsListQuery>;

export const FsListing = z.object({
  /** the folder listed, absolute; '' for the list of drives (Windows) */
  path: z.string(),
  entries: z.array(FsEntry),
  truncated: z.boolean(),
});
export type FsListing = z.infer<typeof FsListing>;

export const DownloadRequest = z
  .object({ path: devicePath.pipe(z.string().min(1, 'Choose a file to download')) })
  .strict();
export type DownloadRequest = z.infer<typeof DownloadRequest>;

export const UploadQuery = z.object({
  /** the file's full path on the device (folder and name); required (checked after access) */
  path: devicePath.optional(),
  overwrite: z
    .enum(['true', 'false'])
    .optional()
    .transform((v) => v === 'true'),
});
export type UploadQuery = z.input<typeof UploadQuery>;

export const TransferIdParams = z.object({ id: z.string().uuid('Not a transfer id') });

export const FileTransfer = z.object({
  id: z.string(),
  device_id: z.number(),
  direction: z.enum(TRANSFER_DIRECTIONS),
  path: z.string(),
  /** the file's name (the last part of the path) */
  name: z.string(),
  size: z.number().nullable(),
  sha256: z.string().nullable(),
  status: z.enum(TRANSFER_STATUSES),
  error: z.string().nullable(),
  created_at: z.string(),
  ended_at: z.string().nullable(),
});
export type FileTransfer = z.infer<typeof FileTransfer>;

export const fileTransferMessages = {
  noAnswer: 'The device did not answer',
  deviceOffline: 'The device is not connected',
  transferNotFound: 'Transfer not found',
  tooLarge: (limit: string) => `The file is larger than the largest file a transfer moves (${limit})`,
  checksumMismatch: 'Checksum mismatch',
  sizeMismatch: 'The file arrived with a different size',
  notReady: 'The file is not ready to download',
  alreadyOver: 'The transfer has already ended',
  bodyMissing: 'Send the file as the request body (application/octet-stream)',
  pathMissing: 'Say where the file goes on the device (path)',
  timedOut: 'The transfer did not finish within an hour',
  cancelled: 'Cancelled',
  bytesGone: 'The file is no longer on the server: download it again',
  fileExists: 'A file with this name already exists',
} as const;

/** The last part of a device path, whichever separator the device uses. */
export function baseName(p: string): string {
  const parts = p.split(/[\\/]/).filter(Boolean);
  return parts[parts.length - 1] ?? p;
}
