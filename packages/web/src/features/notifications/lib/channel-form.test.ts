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
  quiet_hours: null,
  digest: null,
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
        quiet_hours: null,
        digest: null,
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

  it('quiet hours and a digest: off sends null, on sends the settings (docs/product/monitoring.md#quiet-hours-and-digests)', () => {
    const form = {
      ...formOf(emailChannel),
      has_quiet_hours: true,
      quiet_start: '22:00',
      quiet_end: '06:30',
      quiet_time_zone: 'Europe/Berlin',
      has_digest: true,
      digest_max_alerts: '5',
      digest_minutes: '10',
    };
    expect(bodyOf(form)).toMatchObject({
      body: {
        quiet_hours: { start: '22:00', end: '06:30', time_zone: 'Europe/Berlin' },
        digest: { max_alerts: 5, minutes: 10 },
      },
    });
    const edited = formOf({
      ...emailChannel,
      quiet_hours: { start: '21:00', end: '07:00', time_zone: 'UTC' },
    });
    expect(edited).toMatchObject({ has_quiet_hours: true, quiet_start: '21:00', has_digest: false });
    expect(
      bodyOf({
        ...form,
        quiet_end: '22:00',
        quiet_time_zone: 'Mars/Base',
        digest_max_alerts: '',
        digest_minutes: '0',
      }),
    ).toEqual({
      errors: {
        quiet_end: 'Quiet hours must start and end at different times',
        quiet_time_zone: 'Unknown time zone',
        digest_max_alerts: 'Enter a whole number',
        digest_minutes: 'At least 1 minute',
      },
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
