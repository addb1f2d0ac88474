import { z } from 'zod';
import { IdParam } from './input';

// spec: operations §3 Uploaded file (id, originalFilename) and §7 Files; ARCHITECTURE §6.

/** The default upload limit (2 GiB); the server's MAX_UPLOAD_BYTES overrides it. */
export const DEFAULT_MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;

/** The multipart field that carries the file (spec §7: multipart field file). */
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
