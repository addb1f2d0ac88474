import crypto from 'node:crypto';

// Secrets Outpost must send on (an SMTP password, a webhook's signing secret) are stored
// encrypted at rest (docs/product/monitoring.md#notification-channels): AES-256-GCM under a key
// derived with HKDF-SHA256 from the server's session secret, so a copy of the database alone does
// not reveal them. A stored value is `v1.` + base64url(iv ‖ tag ‖ ciphertext).

export type SecretBox = {
  seal(plain: string): string;
  /** the plain text, or null when the value was not sealed with this server's key */
  open(sealed: string): string | null;
};

export function createSecretBox(serverSecret: Uint8Array, purpose: string): SecretBox {
  const key = Buffer.from(crypto.hkdfSync('sha256', serverSecret, Buffer.alloc(0), `outpost ${purpose}`, 32));
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) {
        return null;
      }
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      if (raw.length < 28) {
        return null;
      }
      try {
        const decipher = crypto.createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}
