import { baseName } from '@outpost/contract/file-transfers';
import type { FileTransfer } from '@outpost/contract/file-transfers';
import type { TransferRow } from './file-transfers.queries';

/** A transfer as the API answers it (docs/product/remote-access.md#file-transfer). */
export const view = (row: TransferRow): FileTransfer => ({
  id: row.id,
  device_id: row.deviceId,
  direction: row.direction,
  path: row.path,
  name: baseName(row.path),
  size: row.size,
  sha256: row.sha256,
  status: row.status,
  error: row.error,
  created_at: row.createdAt.toISOString(),
  ended_at: row.endedAt?.toISOString() ?? null,
});
