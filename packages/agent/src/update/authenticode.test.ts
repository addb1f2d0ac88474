import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyAuthenticode } from '@outpost/contract/authenticode';
import { makeTestCertificate, signPe, WINE_PE } from '@outpost/contract/test-support/signer';
import type { TestCertificate } from '@outpost/contract/test-support/signer';

// The JS Authenticode verifier the self-update and the server use: a throwaway certificate made
// here signs a small Windows program (Wine's hostname.exe, as scripts/sign-agent-exe.test.ts)
// with osslsigncode; the verifier must agree with `osslsigncode verify`.

const PE = WINE_PE;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-authenticode-'));
const at = (name: string) => path.join(dir, name);

const signers = new Map<string, TestCertificate>();
function certificate(name: string, subject: string, key = ['rsa:2048']): string {
  const made = makeTestCertificate(dir, name, subject, key);
  signers.set(name, made);
  return made.thumbprint;
}

function sign(name: string, input: string, output: string) {
  signPe(signers.get(name)!, input, output);
}

const osslVerifies = (file: string, name: string) => {
  try {
    execFileSync('osslsigncode', ['verify', '-CAfile', at(`${name}.pem`), '-in', file], { stdio: 'pipe' });
    return true;
  } catch {
    return false;
  }
};

describe('verifyAuthenticode', () => {
  let signer = '';
  let other = '';
  beforeAll(() => {
    signer = certificate('signer', '/CN=Outpost Test Signer');
    other = certificate('other', '/CN=Someone Else', ['ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1']);
    fs.copyFileSync(PE, at('unsigned.exe'));
    sign('signer', at('unsigned.exe'), at('signed.exe'));
    sign('other', at('unsigned.exe'), at('other.exe'));
  }, 60_000);
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('accepts a file signed by the pinned certificate, as osslsigncode does', async () => {
    expect(osslVerifies(at('signed.exe'), 'signer')).toBe(true);
    const result = await verifyAuthenticode(at('signed.exe'), signer);
    expect(result).toMatchObject({ valid: true, thumbprint: signer });
    expect(result.valid && result.subject).toContain('Outpost Test Signer');
    // the same from memory, and with the thumbprint written with colons in upper case
    const colons = signer.toUpperCase().replace(/(..)(?!$)/g, '$1:');
    expect((await verifyAuthenticode(fs.readFileSync(at('signed.exe')), colons)).valid).toBe(true);
  });

  it('refuses a file with one byte changed after signing, as osslsigncode does', async () => {
    const data = fs.readFileSync(at('signed.exe'));
    data[0x400] = data[0x400]! ^ 0xff;
    fs.writeFileSync(at('tampered.exe'), data);
    expect(osslVerifies(at('tampered.exe'), 'signer')).toBe(false);
    const result = await verifyAuthenticode(at('tampered.exe'), signer);
    expect(result.valid).toBe(false);
    expect(!result.valid && result.reason).toContain('changed after it was signed');
  });

  it('refuses a changed signature (the signed attributes no longer verify)', async () => {
    const data = fs.readFileSync(at('signed.exe'));
    // the RSA signature is the SignerInfo's last OCTET STRING: near the end of the table
    data[data.length - 20] = data[data.length - 20]! ^ 0x01;
    const result = await verifyAuthenticode(data, signer);
    expect(result.valid).toBe(false);
  });

  it('refuses an unsigned file and a file that is not an executable', async () => {
    const unsigned = await verifyAuthenticode(at('unsigned.exe'), signer);
    expect(unsigned).toEqual({ valid: false, reason: 'the executable is not signed' });
    expect((await verifyAuthenticode(Buffer.from('#!/bin/sh\necho hi\n'), signer)).valid).toBe(false);
    expect((await verifyAuthenticode(at('missing.exe'), signer)).valid).toBe(false);
  });

  it('refuses a file validly signed by another certificate, and names its thumbprint', async () => {
    expect(osslVerifies(at('other.exe'), 'other')).toBe(true);
    const result = await verifyAuthenticode(at('other.exe'), signer);
    expect(result).toMatchObject({ valid: false, thumbprint: other });
    expect((await verifyAuthenticode(at('other.exe'), other)).valid).toBe(true);
  });
});
