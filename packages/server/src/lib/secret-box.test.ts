import { describe, expect, it } from 'vitest';
import { createSecretBox } from './secret-box';

describe('secret box', () => {
  const key = new TextEncoder().encode('a server secret of at least thirty-two characters');
  const box = createSecretBox(key, 'notification channels');

  it('seals so that the stored value does not contain the secret, and opens it again', () => {
    const sealed = box.seal('hunter2-smtp-password');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('hunter2');
    expect(box.seal('hunter2-smtp-password')).not.toBe(sealed); // a new IV each time
    expect(box.open(sealed)).toBe('hunter2-smtp-password');
  });

  it('refuses a value sealed under another key or purpose, or changed', () => {
    const sealed = box.seal('secret');
    const other = createSecretBox(
      new TextEncoder().encode('another server secret, also long enough'),
      'notification channels',
    );
    expect(other.open(sealed)).toBeNull();
    expect(createSecretBox(key, 'something else').open(sealed)).toBeNull();
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1]! ^= 1;
    expect(box.open(`v1.${raw.toString('base64url')}`)).toBeNull();
    expect(box.open('plain text')).toBeNull();
    expect(box.open('v1.AAAA')).toBeNull();
  });
});
