import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';

// A throwaway Authenticode signer for the tests of signing and of its verification: a
// self-signed certificate made with openssl, and osslsigncode to sign a small Windows program
// (Wine's hostname.exe, installed with the Windows suite's packages by scripts/wine.mjs).

/** A small real Windows executable to sign. */
export const WINE_PE = '/usr/lib/x86_64-linux-gnu/wine/x86_64-windows/hostname.exe';

export type TestCertificate = { cert: string; key: string; thumbprint: string };

/** A certificate and key in `dir` (PEM), and the certificate's sha256 thumbprint. */
export function makeTestCertificate(
  dir: string,
  name = 'signer',
  subject = '/CN=Outpost Test Signer',
  keyType = ['rsa:2048'],
): TestCertificate {
  const cert = path.join(dir, `${name}.pem`);
  const key = path.join(dir, `${name}.key`);
  const args = ['req', '-x509', '-newkey', ...keyType, '-nodes', '-days', '2', '-subj', subject];
  execFileSync('openssl', [...args, '-keyout', key, '-out', cert], { stdio: 'ignore' });
  const der = execFileSync('openssl', ['x509', '-in', cert, '-outform', 'DER']);
  return { cert, key, thumbprint: crypto.createHash('sha256').update(der).digest('hex') };
}

/** Signs `input` into `output` with the certificate (sha256, as the release build does). */
export function signPe(signer: TestCertificate, input: string, output: string): void {
  const args = ['sign', '-certs', signer.cert, '-key', signer.key, '-h', 'sha256', '-n', 'Outpost agent'];
  execFileSync('osslsigncode', [...args, '-in', input, '-out', output], { stdio: 'ignore' });
}
