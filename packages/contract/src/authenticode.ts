import crypto from 'node:crypto';
import fs from 'node:fs';

// Authenticode verification of a Windows PE executable, in JavaScript, so it works the same on
// Windows, under Wine and in Linux tests (server and agent; Node only, never the web client).
// 1. The PE's certificate table (security data directory) holds a WIN_CERTIFICATE with a PKCS#7
//    SignedData; its content is an SpcIndirectDataContent carrying the digest of the file.
// 2. That digest is recomputed: the whole file except the optional header's CheckSum field, the
//    certificate table's directory entry and the certificate table itself.
// 3. The SignerInfo's signed attributes must carry the digest of the SpcIndirectDataContent, and
//    their signature must verify with the signer certificate's public key.
// 4. The signer certificate's sha256 thumbprint must be the one expected (pinned): no chain to a
//    trusted root is built, the pin is the trust (docs/agent.md, "Signature").

/** A DER (or BER, indefinite length: osslsigncode writes some) element: where it and its content are. */
type Der = { tag: number; start: number; header: number; length: number; end: number };

function readDer(buf: Buffer, start: number, depth = 0): Der {
  if (start + 2 > buf.length || depth > 32) {
    throw new Error('truncated signature data');
  }
  const tag = buf[start]!;
  let length = buf[start + 1]!;
  let header = 2;
  if (length === 0x80) {
    // indefinite length: the content runs to an end-of-contents (two zero bytes)
    let at = start + 2;
    while (buf[at] !== 0 || buf[at + 1] !== 0) {
      at = readDer(buf, at, depth + 1).end;
    }
    return { tag, start, header, length: at - start - 2, end: at + 2 };
  }
  if (length & 0x80) {
    const bytes = length & 0x7f;
    if (bytes > 4) {
      throw new Error('unsupported length in signature data');
    }
    length = 0;
    for (let i = 0; i < bytes; i++) {
      length = length * 256 + buf[start + 2 + i]!;
    }
    header += bytes;
  }
  const end = start + header + length;
  if (end > buf.length) {
    throw new Error('truncated signature data');
  }
  return { tag, start, header, length, end };
}

/** The children of a constructed element. */
function children(buf: Buffer, el: Der): Der[] {
  const out: Der[] = [];
  for (let at = el.start + el.header; at < el.start + el.header + el.length;) {
    const child = readDer(buf, at);
    out.push(child);
    at = child.end;
  }
  return out;
}

const body = (buf: Buffer, el: Der) => buf.subarray(el.start + el.header, el.start + el.header + el.length);
const whole = (buf: Buffer, el: Der) => buf.subarray(el.start, el.end);

function oid(buf: Buffer, el: Der): string {
  const bytes = body(buf, el);
  const parts = [Math.floor(bytes[0]! / 40), bytes[0]! % 40];
  let value = 0;
  for (let i = 1; i < bytes.length; i++) {
    value = value * 128 + (bytes[i]! & 0x7f);
    if (!(bytes[i]! & 0x80)) {
      parts.push(value);
      value = 0;
    }
  }
  return parts.join('.');
}

const HASHES: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};
const OID_SIGNED_DATA = '1.2.840.113549.1.7.2';
const OID_MESSAGE_DIGEST = '1.2.840.113549.1.9.4';

type PeLayout = { checksum: number; securityEntry: number; certOffset: number; certSize: number };

function peLayout(file: Buffer): PeLayout {
  if (file.length < 0x40 || file.toString('latin1', 0, 2) !== 'MZ') {
    throw new Error('not a PE executable');
  }
  const pe = file.readUInt32LE(0x3c);
  if (pe + 24 + 2 > file.length || file.toString('latin1', pe, pe + 4) !== 'PE\0\0') {
    throw new Error('not a PE executable');
  }
  const optional = pe + 24;
  const magic = file.readUInt16LE(optional);
  if (magic !== 0x10b && magic !== 0x20b) {
    throw new Error('not a PE executable');
  }
  const securityEntry = optional + (magic === 0x20b ? 112 : 96) + 4 * 8;
  if (securityEntry + 8 > file.length) {
    throw new Error('not a PE executable');
  }
  return {
    checksum: optional + 64,
    securityEntry,
    certOffset: file.readUInt32LE(securityEntry),
    certSize: file.readUInt32LE(securityEntry + 4),
  };
}

/** The byte ranges [start, end) the Authenticode digest covers. */
function digestRanges(layout: PeLayout, fileSize: number): [number, number][] {
  const { checksum, securityEntry, certOffset, certSize } = layout;
  const end = certOffset > 0 && certSize > 0 ? certOffset : fileSize;
  return [
    [0, checksum],
    [checksum + 4, securityEntry],
    [securityEntry + 8, end],
  ];
}

/** A PE file to verify: in memory, or on disk (read in pieces, never whole). */
type Source = {
  size: number;
  read(start: number, end: number): Promise<Buffer>;
  digest(algorithm: string, ranges: [number, number][]): Promise<Buffer>;
};

function bufferSource(file: Buffer): Source {
  return {
    size: file.length,
    read: (start, end) => Promise.resolve(file.subarray(start, end)),
    digest: (algorithm, ranges) => {
      const hash = crypto.createHash(algorithm);
      for (const [start, end] of ranges) {
        hash.update(file.subarray(start, end));
      }
      return Promise.resolve(hash.digest());
    },
  };
}

async function fileSource(handle: fs.promises.FileHandle): Promise<Source> {
  const { size } = await handle.stat();
  const read = async (start: number, end: number) => {
    const buffer = Buffer.alloc(Math.max(0, Math.min(end, size) - start));
    await handle.read(buffer, 0, buffer.length, start);
    return buffer;
  };
  return {
    size,
    read,
    digest: async (algorithm, ranges) => {
      const hash = crypto.createHash(algorithm);
      const chunk = 1 << 20;
      for (const [start, end] of ranges) {
        for (let at = start; at < end; at += chunk) {
          hash.update(await read(at, Math.min(end, at + chunk)));
        }
      }
      return hash.digest();
    },
  };
}

export type AuthenticodeResult =
  | { valid: true; thumbprint: string; subject: string }
  | { valid: false; reason: string; thumbprint?: string };

/** The PKCS#7 SignedData of the file's first WIN_CERTIFICATE, or a reason there is none. */
async function signedData(source: Source, layout: PeLayout): Promise<Buffer | string> {
  const { certOffset, certSize } = layout;
  if (certOffset === 0 || certSize < 8) {
    return 'the executable is not signed';
  }
  if (certOffset + certSize > source.size || certSize > 1 << 24) {
    return 'the certificate table lies outside the file';
  }
  const table = await source.read(certOffset, certOffset + certSize);
  const length = table.readUInt32LE(0);
  const type = table.readUInt16LE(6);
  if (type !== 0x0002 || length < 8 || length > certSize) {
    return 'the certificate table holds no PKCS#7 signature';
  }
  return table.subarray(8, length);
}

async function checkSignature(
  source: Source,
  layout: PeLayout,
  pkcs7: Buffer,
  expectedThumbprint: string,
): Promise<AuthenticodeResult> {
  const fail = (reason: string, thumbprint?: string): AuthenticodeResult => ({
    valid: false,
    reason,
    ...(thumbprint ? { thumbprint } : {}),
  });
  const contentInfo = readDer(pkcs7, 0);
  const [type, explicit] = children(pkcs7, contentInfo);
  if (!type || !explicit || oid(pkcs7, type) !== OID_SIGNED_DATA) {
    return fail('the signature is not PKCS#7 SignedData');
  }
  // SignedData: version, digestAlgorithms, encapContentInfo, [0] certificates, [1] crls?, signerInfos
  const sd = children(pkcs7, children(pkcs7, explicit)[0]!);
  const encap = sd[2]!;
  const certs = sd.find((el) => el.tag === 0xa0);
  const signerInfos = sd[sd.length - 1]!;
  // encapContentInfo: contentType, [0] { SpcIndirectDataContent }
  const indirect = children(pkcs7, children(pkcs7, encap)[1]!)[0]!;
  // SpcIndirectDataContent: data, messageDigest DigestInfo { algorithm, digest }
  const digestInfo = children(pkcs7, indirect)[1]!;
  const [digestAlg, digestValue] = children(pkcs7, digestInfo);
  const algorithm = HASHES[oid(pkcs7, children(pkcs7, digestAlg!)[0]!)];
  if (!algorithm) {
    return fail('the signature uses an unsupported digest algorithm');
  }
  const fileDigest = await source.digest(algorithm, digestRanges(layout, source.size));
  if (!fileDigest.equals(body(pkcs7, digestValue!))) {
    return fail('the executable was changed after it was signed (its digest does not match)');
  }
  const signer = children(pkcs7, signerInfos)[0];
  if (!signer || !certs) {
    return fail('the signature names no signer');
  }
  // SignerInfo: version, sid, digestAlgorithm, [0] signedAttrs, signatureAlgorithm, signature
  const si = children(pkcs7, signer);
  const signedAttrs = si.find((el) => el.tag === 0xa0);
  const signature = si.find((el, i) => i > 3 && el.tag === 0x04);
  const signerAlg = HASHES[oid(pkcs7, children(pkcs7, si[2]!)[0]!)];
  if (!signedAttrs || !signature || !signerAlg) {
    return fail('the signer information is incomplete');
  }
  const digestAttr = children(pkcs7, signedAttrs).find(
    (attr) => oid(pkcs7, children(pkcs7, attr)[0]!) === OID_MESSAGE_DIGEST,
  );
  const contentDigest = crypto.createHash(signerAlg).update(body(pkcs7, indirect)).digest();
  const announced = digestAttr && children(pkcs7, children(pkcs7, digestAttr)[1]!)[0];
  if (!announced || !contentDigest.equals(body(pkcs7, announced))) {
    return fail('the signed attributes do not match the signed content');
  }
  // the signature covers the signed attributes DER-encoded as a SET (tag 0x31), not [0]
  const attrs = Buffer.from(whole(pkcs7, signedAttrs));
  attrs[0] = 0x31;
  const expected = expectedThumbprint.replaceAll(':', '').toLowerCase();
  for (const el of children(pkcs7, certs)) {
    const der = whole(pkcs7, el);
    let cert: crypto.X509Certificate;
    try {
      cert = new crypto.X509Certificate(der);
    } catch {
      continue;
    }
    const verified = crypto.verify(signerAlg, attrs, cert.publicKey, body(pkcs7, signature));
    if (!verified) {
      continue;
    }
    const thumbprint = crypto.createHash('sha256').update(der).digest('hex');
    if (thumbprint !== expected) {
      return fail(`the executable is signed by another certificate (sha256 ${thumbprint})`, thumbprint);
    }
    return { valid: true, thumbprint, subject: cert.subject };
  }
  return fail('the signature does not verify with any certificate it carries');
}

/**
 * Verifies the Authenticode signature of a PE file (its bytes, or its path: then read in pieces)
 * and pins its signer: valid only when the file's digest matches the signed one, the signature
 * verifies with the signer certificate, and that certificate's sha256 thumbprint is
 * `expectedThumbprint` (hex, colons allowed).
 */
export async function verifyAuthenticode(
  file: Buffer | string,
  expectedThumbprint: string,
): Promise<AuthenticodeResult> {
  let handle: fs.promises.FileHandle | null = null;
  try {
    let source: Source;
    if (typeof file === 'string') {
      handle = await fs.promises.open(file, 'r');
      source = await fileSource(handle);
    } else {
      source = bufferSource(file);
    }
    const layout = peLayout(await source.read(0, 4096));
    const pkcs7 = await signedData(source, layout);
    if (typeof pkcs7 === 'string') {
      return { valid: false, reason: pkcs7 };
    }
    return await checkSignature(source, layout, pkcs7, expectedThumbprint);
  } catch (err) {
    return { valid: false, reason: `the signature cannot be read (${(err as Error).message})` };
  } finally {
    await handle?.close();
  }
}
