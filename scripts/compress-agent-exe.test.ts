import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { compressRelease } from './compress-agent-exe.mjs';

const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');

describe('compressRelease', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-compress-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('writes .br, .xz and .gz beside the file, each decompressing to it, with their sha256 and size', async () => {
    const file = path.join(dir, 'outpost-agent-linux-x64');
    const data = Buffer.concat([crypto.randomBytes(64 * 1024), Buffer.alloc(512 * 1024, 'agent ')]);
    fs.writeFileSync(file, data);
    const compressed = (await compressRelease(file)) as Record<string, { sha256: string; size: number }>;
    expect(Object.keys(compressed).sort()).toEqual(['br', 'gz', 'xz']);
    const back = {
      br: zlib.brotliDecompressSync(fs.readFileSync(`${file}.br`)),
      gz: zlib.gunzipSync(fs.readFileSync(`${file}.gz`)),
      xz: execFileSync('xz', ['-dc', `${file}.xz`]),
    };
    for (const [encoding, unpacked] of Object.entries(back)) {
      const packed = fs.readFileSync(`${file}.${encoding}`);
      expect(unpacked.equals(data), encoding).toBe(true);
      expect(compressed[encoding]).toEqual({ sha256: sha(packed), size: packed.length });
      expect(packed.length).toBeLessThan(data.length);
    }
    expect(fs.readdirSync(dir).sort()).toEqual([
      'outpost-agent-linux-x64',
      'outpost-agent-linux-x64.br',
      'outpost-agent-linux-x64.gz',
      'outpost-agent-linux-x64.xz',
    ]);
  });
});
