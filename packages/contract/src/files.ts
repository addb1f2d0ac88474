import { z } from 'zod';
import { IdParam } from './input';

// docs/product/packages.md#fields Uploaded file (id, originalFilename) and #calls; #files.

/** The default upload limit (2 GiB); the server's MAX_UPLOAD_BYTES overrides it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;

/** The multipart field that carries the file (docs/product/packages.md#calls: multipart field file). */
export const FILE_FIELD = 'file';

export const UploadedFile = z.object({
  id: z.number().int(),
  originalFilename: z.string(),
  size: z.number().int(),
  sha256: z.string(),
  content_type: z.string().nullable(),
  created_at: z.string(),
  uploaded_by_name: z.string().nullable(),
});
export type UploadedFile = z.infer<typeof UploadedFile>;

export const FileIdParams = z.object({ id: IdParam });

/** Human-readable byte counts for limits and file sizes (1024-based, as Windows shows them). */
export function formatBytes(bytes: number): string {
  const units = ['bytes', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const shown = unit === 0 || Number.isInteger(value) ? String(value) : value.toFixed(1);
  return `${shown} ${units[unit]}`;
}

/**
 * GET /customer/files/usage: what the organisation's uploads take and its quota (SECURITY.md
 * R2-14). An upload that does not fit in what is left is refused with 413.
 */
export const StorageUsage = z.object({
  used_bytes: z.number().int(),
  quota_bytes: z.number().int(),
  file_count: z.number().int(),
});
export type StorageUsage = z.infer<typeof StorageUsage>;

/** How much of the quota is used, 0–100 (a quota of 0 with nothing stored is 0% used). */
export function storageUsedPercent(usage: Pick<StorageUsage, 'used_bytes' | 'quota_bytes'>): number {
  if (usage.quota_bytes <= 0) {
    return usage.used_bytes > 0 ? 100 : 0;
  }
  return Math.min(100, Math.round((usage.used_bytes / usage.quota_bytes) * 100));
}

// File names come from whoever uploaded the file. Bidirectional control characters in them
// (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, U+200E/U+200F marks) would
// reorder what people read: "setup\u202Egpj.exe" shows as "setupexe.jpg". Wherever a file name is
// shown (the web app, the server's messages and audit details) they are written out as visible
// escapes instead (SECURITY.md "Bidi control characters in file names").
const BIDI_CONTROLS = /[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** The name with every bidi control character shown as `\uXXXX`. */
export function showFileName(name: string): string {
  return name.replace(
    BIDI_CONTROLS,
    (c) => `\\u${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`,
  );
}
