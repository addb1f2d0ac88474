import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Transform } from 'node:stream';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

// docs/product/packages.md#files: uploads stream to a blob store, never buffered whole. The store is an
// interface so an S3-compatible one can be added next to the local directory.

export type StoredBlob = { size: number; sha256: string };

export type BlobStore = {
  /** Streams `source` into the store under `key`, hashing as it goes. Keeps nothing on failure. */
  put(key: string, source: Readable): Promise<StoredBlob>;
  /** A stream of the blob's bytes. */
  open(key: string): Promise<Readable>;
  /** Removes the blob; a missing blob is not an error. */
  remove(key: string): Promise<void>;
};

/** Counts and hashes the bytes that pass through, without holding on to them. */
class HashingCounter extends Transform {
  readonly hash = crypto.createHash('sha256');
  size = 0;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: () => void): void {
    this.hash.update(chunk);
    this.size += chunk.length;
    this.push(chunk);
    callback();
  }
}

const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{7,127}$/;

function assertSafeKey(key: string): void {
  if (!SAFE_KEY.test(key)) {
    throw new Error(`invalid blob key: ${key}`);
  }
}

/** Blobs as files under `dir`, spread over 256 subfolders by the key's first two characters. */
export function createLocalBlobStore(dir: string): BlobStore {
  const incoming = path.join(dir, '.incoming');
  const finalPath = (key: string) => path.join(dir, key.slice(0, 2), key);

  return {
    async put(key, source) {
      assertSafeKey(key);
      await fs.promises.mkdir(incoming, { recursive: true, mode: 0o700 });
      const temp = path.join(incoming, `${key}.part`);
      const counter = new HashingCounter();
      try {
        await pipeline(source, counter, fs.createWriteStream(temp, { flags: 'wx', mode: 0o600 }));
        const target = finalPath(key);
        await fs.promises.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
        await fs.promises.rename(temp, target);
      } catch (err) {
        await fs.promises.rm(temp, { force: true });
        throw err;
      }
      return { size: counter.size, sha256: counter.hash.digest('hex') };
    },
    async open(key) {
      assertSafeKey(key);
      const file = finalPath(key);
      await fs.promises.access(file, fs.constants.R_OK);
      return fs.createReadStream(file);
    },
    async remove(key) {
      assertSafeKey(key);
      await fs.promises.rm(finalPath(key), { force: true });
    },
  };
}

/** A fresh, unguessable storage key: never derived from the uploaded name. */
export const newStorageKey = () => crypto.randomUUID();
