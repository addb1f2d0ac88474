import crypto from 'node:crypto';
import { execFile, spawn } from 'node:child_process';
import fs from 'node:fs';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { verifyAuthenticode } from '@outpost/contract/authenticode';
import type { AuthenticodeResult } from '@outpost/contract/authenticode';

// What the self-update (updater.ts) does to the world, and how the real agent does it.

const SELF_TEST_TIMEOUT_MS = 30_000;

export type SelfTestResult = { code: number | null; stdout: string };

/** What the updater does to the world; tests replace parts of it. */
export type UpdateIo = {
  /** download `url` into `dest` (the bytes as served; verification is the updater's) */
  download(url: URL, dest: string, headers: Record<string, string>, maxBytes: number): Promise<void>;
  selfTest(file: string): Promise<SelfTestResult>;
  rename(from: string, to: string): Promise<void>;
  remove(file: string): Promise<void>;
  exists(file: string): Promise<boolean>;
  readFile(file: string): Promise<Buffer>;
  /** the file's sha256 (hex) and size */
  hash(file: string): Promise<{ sha256: string; size: number }>;
  writeFile(file: string, data: string): Promise<void>;
  chmod(file: string, mode: number): Promise<void>;
  /**
   * decompress `file` into `dest`, at most `maxBytes` of output: Brotli (a large-window one too,
   * Node's zlib) or xz (the system's xz command)
   */
  decompress(file: string, dest: string, maxBytes: number, encoding?: 'br' | 'xz'): Promise<void>;
  /** whether the system has the xz command (Linux and macOS agents prefer the smaller xz download) */
  hasXz(): Promise<boolean>;
  /** the file's Authenticode signature, valid only when signed by the certificate `thumbprint` */
  verifySignature(file: string, thumbprint: string): Promise<AuthenticodeResult>;
  /** end the process so the service manager restarts it */
  exit(code: number): void;
};

/** Passes chunks on until more than `maxBytes` went through, then fails with `what`. */
function byteLimit(maxBytes: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _enc, done) {
      seen += chunk.length;
      done(
        seen > maxBytes ? new Error(`${what} is larger than the announced ${maxBytes} bytes`) : null,
        chunk,
      );
    },
  });
}

async function decompress(file: string, dest: string, maxBytes: number, encoding: 'br' | 'xz' = 'br') {
  const limit = byteLimit(maxBytes, 'The decompressed download');
  const out = fs.createWriteStream(dest, { mode: 0o700 });
  if (encoding === 'br') {
    const brotli = zlib.createBrotliDecompress({
      params: { [zlib.constants.BROTLI_DECODER_PARAM_LARGE_WINDOW]: 1 },
    });
    await pipeline(fs.createReadStream(file), brotli, limit, out);
    return;
  }
  const xz = spawn('xz', ['-dc', '--', file], { stdio: ['ignore', 'pipe', 'ignore'] });
  const exited = new Promise<void>((resolve, reject) => {
    xz.on('error', reject);
    xz.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`xz -d failed (exit code ${code})`)),
    );
  });
  try {
    await pipeline(xz.stdout, limit, out);
  } finally {
    xz.kill();
  }
  await exited;
}

function hasXz(): Promise<boolean> {
  return new Promise((resolve) => {
    execFile('xz', ['--version'], { timeout: 5000 }, (err) => resolve(!err));
  });
}

async function downloadWithFetch(url: URL, dest: string, headers: Record<string, string>, maxBytes: number) {
  const res = await fetch(url, { headers, redirect: 'error' });
  if (!res.ok || !res.body) {
    throw new Error(`Downloading ${url.pathname} failed: HTTP ${res.status}`);
  }
  await pipeline(
    Readable.fromWeb(res.body as never),
    byteLimit(maxBytes, 'The download'),
    fs.createWriteStream(dest, { mode: 0o700 }),
  );
}

function selfTestWithExec(file: string): Promise<SelfTestResult> {
  return new Promise((resolve) => {
    execFile(
      file,
      ['--self-test'],
      {
        timeout: SELF_TEST_TIMEOUT_MS,
        maxBuffer: 64 * 1024,
        env: { ...process.env, OUTPOST_SELF_TEST: '1' },
      },
      (err, stdout) => {
        const code = err ? (typeof err.code === 'number' ? err.code : null) : 0;
        resolve({ code, stdout: String(stdout) });
      },
    );
  });
}

export const defaultIo: UpdateIo = {
  download: downloadWithFetch,
  selfTest: selfTestWithExec,
  rename: (from, to) => fs.promises.rename(from, to),
  remove: (file) => fs.promises.rm(file, { force: true }),
  exists: async (file) => {
    try {
      await fs.promises.access(file);
      return true;
    } catch {
      return false;
    }
  },
  readFile: (file) => fs.promises.readFile(file),
  hash: async (file) => {
    const hash = crypto.createHash('sha256');
    let size = 0;
    for await (const chunk of fs.createReadStream(file)) {
      hash.update(chunk as Buffer);
      size += (chunk as Buffer).length;
    }
    return { sha256: hash.digest('hex'), size };
  },
  writeFile: async (file, data) => {
    const tmp = `${file}.${process.pid}.tmp`;
    await fs.promises.writeFile(tmp, data, { mode: 0o600 });
    await fs.promises.rename(tmp, file);
  },
  chmod: (file, mode) => fs.promises.chmod(file, mode),
  decompress,
  hasXz,
  verifySignature: (file, thumbprint) => verifyAuthenticode(file, thumbprint),
  exit: (code) => process.exit(code),
};
