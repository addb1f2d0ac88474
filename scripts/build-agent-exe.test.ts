import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { exeName } from './build-agent-exe.mjs';
import { removePeSignature } from './pe-signature.mjs';

/** A minimal PE32+ file: DOS header, PE header, optional header with its data directories, then a certificate table. */
function fakePe(certificate: Buffer | null) {
  const pe = 0x80;
  const optional = pe + 24;
  const directories = optional + 112;
  const body = Buffer.alloc(directories + 16 * 8 + 64, 0);
  body.writeUInt32LE(pe, 0x3c);
  body.write('PE\0\0', pe, 'latin1');
  body.writeUInt16LE(0x20b, optional);
  if (!certificate) {
    return body;
  }
  body.writeUInt32LE(body.length, directories + 4 * 8);
  body.writeUInt32LE(certificate.length, directories + 4 * 8 + 4);
  return Buffer.concat([body, certificate]);
}

describe('build-agent-exe', () => {
  it('names the Windows executable .exe and the others without an extension', () => {
    expect(exeName('win-x64')).toBe('outpost-agent-win-x64.exe');
    expect(exeName('darwin-arm64')).toBe('outpost-agent-darwin-arm64');
  });

  it('removes an Authenticode certificate table from a PE file, and leaves an unsigned one alone', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-pe-'));
    try {
      const signed = path.join(dir, 'signed.exe');
      const unsigned = fakePe(null);
      fs.writeFileSync(signed, fakePe(Buffer.alloc(40, 0xab)));
      expect(removePeSignature(signed)).toBe(true);
      expect(fs.readFileSync(signed).equals(unsigned)).toBe(true);
      expect(removePeSignature(signed)).toBe(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
