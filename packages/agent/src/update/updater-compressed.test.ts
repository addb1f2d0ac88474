import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UpdateAgentCommand } from '@outpost/contract/agent-protocol';
import { makeTestCertificate, signPe, WINE_PE } from '@outpost/contract/test-support/signer';
import type { UpdateIo } from './updater';
import { createUpdater } from './updater';

// The self-update's Brotli download and Authenticode check, with the real decompression and the
// real JS verifier (update-io.ts); only the download and the self-test are stand-ins.

const sha = (data: Buffer) => crypto.createHash('sha256').update(data).digest('hex');
const largeWindow = (data: Buffer) =>
  zlib.brotliCompressSync(data, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 5,
      [zlib.constants.BROTLI_PARAM_LGWIN]: 26,
      [zlib.constants.BROTLI_PARAM_LARGE_WINDOW]: 1,
    },
  });

type Build = UpdateAgentCommand['builds'][number];

describe('self-update: compressed download and signature', () => {
  const certs = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-update-sig-'));
  const at = (name: string) => path.join(certs, name);
  let signed: Buffer;
  let thumbprint = '';
  let dir: string;
  let exe: string;
  let served: Map<string, Buffer>;
  let downloads: string[];

  beforeAll(() => {
    const signer = makeTestCertificate(certs);
    thumbprint = signer.thumbprint;
    signPe(signer, WINE_PE, at('signed.exe'));
    signed = fs.readFileSync(at('signed.exe'));
  }, 60_000);
  afterAll(() => fs.rmSync(certs, { recursive: true, force: true }));

  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-update-z-'));
    exe = path.join(dir, 'outpost-agent.exe');
    fs.writeFileSync(exe, 'old');
    fs.mkdirSync(path.join(dir, 'state'));
    served = new Map();
    downloads = [];
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const io: Partial<UpdateIo> = {
    download: async (url, dest, _headers, maxBytes) => {
      const key = `${url.pathname}${url.search}`;
      downloads.push(key);
      const body = served.get(key) ?? Buffer.alloc(0);
      if (body.length > maxBytes) {
        throw new Error('The download is larger than announced');
      }
      await fs.promises.writeFile(dest, body);
    },
    selfTest: () => Promise.resolve({ code: 0, stdout: 'outpost-agent 2.0.0\n' }),
    exit: () => undefined,
  };

  /** Applies an update of `exeBody`, served Brotli-compressed, with these build fields. */
  function apply(exeBody: Buffer, build: Partial<Build> = {}) {
    const packed = largeWindow(exeBody);
    served.set('/api/agent/releases/win-x64?encoding=br', packed);
    const updater = createUpdater({
      exePath: exe,
      isPackaged: true,
      version: '1.0.0',
      platform: 'win32',
      arch: 'x64',
      stateDir: path.join(dir, 'state'),
      server: 'https://outpost.example.com',
      deviceGuid: 'g',
      agentSecret: 's',
      io,
    });
    return updater.apply('cmd-1', {
      kind: 'update_agent',
      version: '2.0.0',
      builds: [
        {
          platform: 'win-x64',
          version: '2.0.0',
          sha256: sha(exeBody),
          size: exeBody.length,
          url: '/api/agent/releases/win-x64',
          br: { url: '/api/agent/releases/win-x64?encoding=br', size: packed.length },
          ...build,
        },
      ],
    });
  }

  it('downloads the Brotli form, decompresses it, checks it and swaps it in', async () => {
    expect(await apply(signed, { signer_sha256: thumbprint })).toEqual({ restart: true });
    expect(downloads).toEqual(['/api/agent/releases/win-x64?encoding=br']);
    expect(fs.readFileSync(exe).equals(signed)).toBe(true);
    expect(fs.readdirSync(dir).sort()).toEqual(['outpost-agent.exe', 'outpost-agent.exe.previous', 'state']);
  });

  it('refuses a decompressed result that is not the announced executable', async () => {
    const other = Buffer.concat([signed, Buffer.from('x')]);
    await expect(apply(other, { sha256: sha(signed), size: other.length })).rejects.toThrow(/sha256/);
    // more than the announced size never lands on disk whole
    await expect(apply(other, { size: signed.length })).rejects.toThrow(/larger than the announced/);
    expect(fs.readFileSync(exe, 'utf8')).toBe('old');
    expect(fs.readdirSync(dir).sort()).toEqual(['outpost-agent.exe', 'state']);
  });

  it('on Linux takes the xz form when the system has xz, the Brotli form otherwise', async () => {
    const body = Buffer.from(`#!/bin/sh\necho "outpost-agent 2.0.0"\n# ${'x'.repeat(4000)}\n`);
    const linuxExe = path.join(dir, 'outpost-agent');
    fs.writeFileSync(linuxExe, 'old');
    const xz = execFileSync('xz', ['-c'], { input: body });
    const br = largeWindow(body);
    served.set('/api/agent/releases/linux-x64?encoding=xz', xz);
    served.set('/api/agent/releases/linux-x64?encoding=br', br);
    const update = (hasXz: boolean) =>
      createUpdater({
        exePath: linuxExe,
        isPackaged: true,
        version: '1.0.0',
        platform: 'linux',
        arch: 'x64',
        stateDir: path.join(dir, 'state'),
        server: 'https://outpost.example.com',
        deviceGuid: 'g',
        agentSecret: 's',
        io: { ...io, hasXz: () => Promise.resolve(hasXz) },
      }).apply('cmd-1', {
        kind: 'update_agent',
        version: '2.0.0',
        builds: [
          {
            platform: 'linux-x64',
            version: '2.0.0',
            sha256: sha(body),
            size: body.length,
            url: '/api/agent/releases/linux-x64',
            br: { url: '/api/agent/releases/linux-x64?encoding=br', size: br.length },
            xz: { url: '/api/agent/releases/linux-x64?encoding=xz', size: xz.length },
          },
        ],
      });
    expect(await update(true)).toEqual({ restart: true });
    expect(fs.readFileSync(linuxExe).equals(body)).toBe(true);
    fs.writeFileSync(linuxExe, 'old');
    fs.rmSync(`${linuxExe}.previous`);
    expect(await update(false)).toEqual({ restart: true });
    expect(fs.readFileSync(linuxExe).equals(body)).toBe(true);
    expect(downloads).toEqual([
      '/api/agent/releases/linux-x64?encoding=xz',
      '/api/agent/releases/linux-x64?encoding=br',
    ]);
  });

  it('refuses an unsigned executable, a changed one and another signer’s when a signer is named', async () => {
    const unsigned = fs.readFileSync(WINE_PE);
    await expect(apply(unsigned, { signer_sha256: thumbprint })).rejects.toThrow(/not signed/);
    const tampered = Buffer.from(signed);
    tampered[0x400] = tampered[0x400]! ^ 0xff;
    await expect(apply(tampered, { signer_sha256: thumbprint })).rejects.toThrow(
      /changed after it was signed/,
    );
    await expect(apply(signed, { signer_sha256: 'cd'.repeat(32) })).rejects.toThrow(/another certificate/);
    expect(fs.readFileSync(exe, 'utf8')).toBe('old');
  });
});
