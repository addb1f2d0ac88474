import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import type { TransformCallback } from 'node:stream';
import { formatBytes } from '@outpost/contract/files';
import { fileTransferMessages as messages } from '@outpost/contract/file-transfers';
import { HttpError } from '../../lib/errors';
import type { BlobStore, StoredBlob } from '../files/blob-store';

// The bytes of a transfer (docs/decisions/2026-11-27-file-transfer.md): streamed into the blob
// store, hashed and counted by the store as they pass, and cut off with a 413 once they pass the
// tenant's largest file. Nothing here holds more than a stream chunk.

export const tooLarge = (maxBytes: number) =>
  new HttpError(413, messages.tooLarge(formatBytes(maxBytes)), 'FILE_TOO_LARGE');

/** Passes bytes on until more than `maxBytes` went through, then fails with the 413. */
class SizeLimit extends Transform {
  private seen = 0;

  constructor(private readonly maxBytes: number) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.seen += chunk.length;
    if (this.seen > this.maxBytes) {
      callback(tooLarge(this.maxBytes));
      return;
    }
    callback(null, chunk);
  }
}

/** A declared Content-Length beyond the limit is refused before a byte is read. */
export function checkDeclaredLength(header: string | undefined, maxBytes: number): void {
  const declared = Number(header ?? 0);
  if (Number.isFinite(declared) && declared > maxBytes) {
    throw tooLarge(maxBytes);
  }
}

/**
 * Streams `body` into the store under `key`, at most `maxBytes`; the store keeps nothing when it
 * fails. A body cut short by the client is its error, not the server's (400).
 */
export async function storeLimited(
  store: BlobStore,
  key: string,
  body: Readable,
  maxBytes: number,
): Promise<StoredBlob> {
  const limit = new SizeLimit(maxBytes);
  body.on('error', (err) => limit.destroy(err));
  try {
    return await store.put(key, body.pipe(limit));
  } catch (err) {
    body.resume();
    if (err instanceof HttpError) {
      throw err;
    }
    // a file system error (it names its syscall) is the server's; anything else, the client's
    if (err instanceof Error && 'syscall' in err) {
      throw err;
    }
    throw new HttpError(400, 'The file was cut short before it arrived', 'TRANSFER_INTERRUPTED');
  }
}
