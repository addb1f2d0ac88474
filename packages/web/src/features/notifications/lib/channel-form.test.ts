import { describe, expect, it } from 'vitest';
import { channelMessages } from '@outpost/contract/notification-channels';
import type { NotificationChannel } from '@outpost/contract/notification-channels';
import { bodyOf, destinationOf, formOf } from './channel-form';

const emailChannel: NotificationChannel = {
  id: 1,
  name: 'On-call',
  kind: 'email',
  enabled: true,
  config: {
    smtp_host: 'mail',
    smtp_port: 465,
    smtp_security: 'tls',
    from: 'o@a.example',
    to: ['a@a.example', 'b@a.example', 'c@a.example'],
  },
  has_secret: true,
  created_at: '',
  updated_at: '',
  last_delivery: null,
};

describe('the channel form', () => {
  it('an e-mail channel: recipients from one line, a blank password keeps the stored one', () => {
    const form = { ...formOf(emailChannel), to: 'a@a.example; b@a.example\nc@a.example' };
    const out = bodyOf(form);
    expect(out).toEqual({
      body: {
        kind: 'email',
        name: 'On-call',
        enabled: true,
        config: {
          smtp_host: 'mail',
          smtp_port: 465,
          smtp_security: 'tls',
          from: 'o@a.example',
          to: ['a@a.example', 'b@a.example', 'c@a.example'],
        },
      },
    });
    expect(bodyOf({ ...form, smtp_password: 'new' })).toMatchObject({
      body: { config: { smtp_password: 'new' } },
    });
  });

  it("says what is wrong, field by field, in the contract's words", () => {
    const out = bodyOf({ ...formOf(null), kind: 'webhook', name: '', url: 'ftp://x/y', secret: 'short' });
    expect(out).toEqual({
      errors: {
        name: 'Name is required',
        url: channelMessages.urlScheme,
        secret: channelMessages.secretLength,
      },
    });
    const mail = bodyOf({
      ...formOf(null),
      kind: 'email',
      name: 'm',
      smtp_host: 'h',
      smtp_port: '',
      from: 'x@y.example',
      to: '',
    });
    expect(mail).toMatchObject({
      errors: { smtp_port: 'Port must be 1–65535', to: channelMessages.recipientsRequired },
    });
  });

  it('names where a channel sends', () => {
    expect(destinationOf(emailChannel)).toBe('a@a.example, b@a.example +1');
    expect(
      destinationOf({
        ...emailChannel,
        kind: 'webhook',
        config: { url: 'https://ops.example.com/hooks/outpost' },
      }),
    ).toBe('ops.example.com/hooks/outpost');
  });
});
