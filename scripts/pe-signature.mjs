// Authenticode on the Windows agent executable, for scripts/build-agent-exe.mjs: the signature
// Node's own node.exe carries is removed before the agent is injected (it would be left invalid),
// and the result is signed with the project's certificate when one is configured (docs/agent.md).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Runs a program and returns its standard output (its errors go to ours). */
function run(cmd, args, options = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], ...options });
}

/**
 * Removes a Windows executable's Authenticode signature (what `signtool remove /s` does): the
 * injection would leave it invalid, and Windows treats a broken signature worse than none. The
 * certificate table is the PE security data directory; it is emptied and cut from the file end.
 */
export function removePeSignature(file) {
  const buffer = fs.readFileSync(file);
  const pe = buffer.readUInt32LE(0x3c);
  if (buffer.toString('latin1', pe, pe + 4) !== 'PE\0\0') {
    throw new Error(`${file} is not a PE executable`);
  }
  const optional = pe + 24;
  const magic = buffer.readUInt16LE(optional);
  // data directories follow the optional header's fixed part: 96 bytes (PE32), 112 (PE32+)
  const directories = optional + (magic === 0x20b ? 112 : 96);
  const security = directories + 4 * 8;
  const offset = buffer.readUInt32LE(security);
  const size = buffer.readUInt32LE(security + 4);
  if (offset === 0 || size === 0) {
    return false;
  }
  buffer.writeUInt32LE(0, security);
  buffer.writeUInt32LE(0, security + 4);
  const end = offset + size >= buffer.length - 8 ? offset : buffer.length;
  fs.writeFileSync(file, buffer.subarray(0, end));
  return true;
}

/**
 * Signs a Windows executable with Authenticode (osslsigncode, Debian's package) when
 * OUTPOST_SIGN_PFX names a PKCS#12 certificate and key (OUTPOST_SIGN_PASSWORD its password; it is
 * handed over in a private file, never on a command line). Returns the signer, or null unsigned.
 * @returns {{ subject: string, sha256: string } | null}
 */
export function signWindowsExe(file, env = process.env) {
  const pfx = env.OUTPOST_SIGN_PFX;
  if (!pfx) {
    return null;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'outpost-sign-'));
  try {
    const passFile = path.join(dir, 'pass');
    fs.writeFileSync(passFile, env.OUTPOST_SIGN_PASSWORD ?? '', { mode: 0o600 });
    const signed = path.join(dir, 'signed.exe');
    run('osslsigncode', [
      'sign',
      '-pkcs12',
      pfx,
      '-readpass',
      passFile,
      '-h',
      'sha256',
      '-n',
      'Outpost agent',
      '-in',
      file,
      '-out',
      signed,
    ]);
    fs.copyFileSync(signed, file);
    const pem = run('openssl', ['pkcs12', '-in', pfx, '-nokeys', '-clcerts', '-passin', `file:${passFile}`]);
    const info = run('openssl', ['x509', '-noout', '-subject', '-fingerprint', '-sha256'], {
      input: pem,
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    return {
      subject: /subject=\s*(.*)/.exec(info)?.[1]?.trim() ?? '',
      sha256: (/Fingerprint=([0-9A-F:]+)/i.exec(info)?.[1] ?? '').replaceAll(':', '').toLowerCase(),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
