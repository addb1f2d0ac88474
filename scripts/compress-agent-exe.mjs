// The compressed downloads of an agent release (build-agent-exe.mjs --compress), beside the
// executable: <file>.br, <file>.xz, <file>.gz. Why these three:
// docs/decisions/2026-11-26-agent-download-size.md.
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';

export const ENCODINGS = ['br', 'xz', 'gz'];

function log(msg) {
  console.log(`[build-agent-exe] ${msg}`);
}

function sha256(file) {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * Brotli quality 11 with RFC 7932's largest window, 16 MiB: every Brotli decoder reads it
 * (PowerShell 7's BrotliStream too, which has no large-window mode) and decoding needs ~16 MiB.
 */
export const BROTLI_WINDOW_BITS = 24;

function compressor(encoding, file) {
  if (encoding === 'br') {
    return zlib.createBrotliCompress({
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
        [zlib.constants.BROTLI_PARAM_LGWIN]: BROTLI_WINDOW_BITS,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: fs.statSync(file).size,
      },
    });
  }
  return zlib.createGzip({ level: 9 });
}

/**
 * Writes <file>.br, <file>.xz and <file>.gz (xz only where the xz command is found, and not for
 * Windows: no Windows client reads it) and returns {encoding: {sha256, size}}.
 */
export async function compressRelease(file, encodings = ENCODINGS) {
  if (file.endsWith('.exe')) {
    encodings = encodings.filter((encoding) => encoding !== 'xz');
  }
  const jobs = encodings.map(async (encoding) => {
    const out = `${file}.${encoding}`;
    const tmp = `${out}.${process.pid}.tmp`;
    try {
      if (encoding === 'xz') {
        const fd = fs.openSync(tmp, 'w');
        try {
          await new Promise((resolve, reject) => {
            // x86-64 code: the BCJ x86 filter first (about 8 % smaller); -9e: the smallest LZMA2
            const filters = /-x64(\.exe)?$/.test(file) ? ['--x86', '--lzma2=preset=9e'] : ['-9e'];
            const child = spawn('xz', ['-T1', ...filters, '-c', file], { stdio: ['ignore', fd, 'inherit'] });
            child.on('error', reject);
            child.on('close', (code) =>
              code === 0 ? resolve(undefined) : reject(new Error(`xz exited ${code}`)),
            );
          });
        } finally {
          fs.closeSync(fd);
        }
      } else {
        await pipeline(fs.createReadStream(file), compressor(encoding, file), fs.createWriteStream(tmp));
      }
      fs.renameSync(tmp, out);
      log(`${out}: ${(fs.statSync(out).size / 1e6).toFixed(1)} MB`);
      return [encoding, { sha256: sha256(out), size: fs.statSync(out).size }];
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      log(`not compressed with ${encoding}: ${err instanceof Error ? err.message : err}`);
      return null;
    }
  });
  return Object.fromEntries((await Promise.all(jobs)).filter((entry) => entry !== null));
}
