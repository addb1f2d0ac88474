import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTestCertificate, WINE_PE } from '../packages/contract/test/support/test-signer';
import { signWindowsExe } from './pe-signature.mjs';

// Authenticode signing of the Windows executable: a throwaway certificate made here signs a
// small Windows program (Wine's hostname.exe, installed with the Wine suite's packages), and
// osslsigncode verifies the signature against that certificate.

const PE = WINE_PE;

describe('signWindowsExe', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-sign-test-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('leaves the file alone without a certificate configured', () => {
    const file = path.join(dir, 'unsigned.exe');
    fs.writeFileSync(file, 'MZ');
    expect(signWindowsExe(file, {})).toBeNull();
    expect(fs.readFileSync(file, 'utf8')).toBe('MZ');
  });

  it('signs with the configured PFX, names the signer, and osslsigncode verifies it', () => {
    const at = (name: string) => path.join(dir, name);
    const made = makeTestCertificate(dir);
    execFileSync(
      'openssl',
      [
        'pkcs12',
        '-export',
        '-inkey',
        made.key,
        '-in',
        made.cert,
        '-out',
        at('signer.pfx'),
        '-passout',
        'pass:s3cret',
      ],
      { stdio: 'ignore' },
    );
    const file = at('agent.exe');
    fs.copyFileSync(PE, file);
    const signer = signWindowsExe(file, {
      OUTPOST_SIGN_PFX: at('signer.pfx'),
      OUTPOST_SIGN_PASSWORD: 's3cret',
    });
    expect(signer?.subject).toContain('CN = Outpost Test Signer');
    expect(signer?.sha256).toMatch(/^[0-9a-f]{64}$/);
    const verified = execFileSync('osslsigncode', ['verify', '-CAfile', made.cert, '-in', file], {
      encoding: 'utf8',
    });
    expect(verified).toContain('Signature verification: ok');
    // a changed byte breaks it
    const data = fs.readFileSync(file);
    data[200] = data[200]! ^ 0xff;
    fs.writeFileSync(at('tampered.exe'), data);
    expect(() =>
      execFileSync('osslsigncode', ['verify', '-CAfile', made.cert, '-in', at('tampered.exe')], {
        stdio: 'pipe',
      }),
    ).toThrow();
  });
});
