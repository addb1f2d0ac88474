import crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { emailContent, signature, slackBody, teamsBody, webhookBody } from './formats';

const message = {
  subject: 'Rollout halted',
  text: 'Wave 1 halted: 3 of 20 devices failed <15 %>',
  severity: 'critical' as const,
  link: 'https://outpost.example/deployments/7',
  data: { job_id: 7 },
};
const facts = {
  id: 42,
  event: 'rollout_halted',
  createdAt: new Date('2026-11-27T05:00:00Z'),
  tenantName: 'Acme',
};

describe('notification formats', () => {
  it('a webhook body carries the delivery, the event and the data, the same on every attempt', () => {
    const body = webhookBody(message, facts);
    expect(JSON.parse(body)).toEqual({
      delivery_id: 42,
      event: 'rollout_halted',
      tenant: 'Acme',
      created_at: '2026-11-27T05:00:00.000Z',
      severity: 'critical',
      subject: 'Rollout halted',
      text: message.text,
      link: message.link,
      data: { job_id: 7 },
    });
    expect(webhookBody(message, facts)).toBe(body);
  });

  it('signs the exact body with HMAC-SHA256 as a receiver verifies it', () => {
    const body = webhookBody(message, facts);
    const expected = crypto.createHmac('sha256', 'a-signing-secret-123').update(body).digest('hex');
    expect(signature('a-signing-secret-123', body)).toBe(`sha256=${expected}`);
    expect(signature('another-secret-4567', body)).not.toBe(`sha256=${expected}`);
  });

  it('Slack: mrkdwn text with the link, its control characters escaped', () => {
    const { text } = JSON.parse(slackBody(message)) as { text: string };
    expect(text).toContain('*Rollout halted*');
    expect(text).toContain('&lt;15 %&gt;');
    expect(text).toContain('<https://outpost.example/deployments/7|Open in Outpost>');
  });

  it('Teams: a message card coloured by severity with an Open action', () => {
    const card = JSON.parse(teamsBody(message)) as Record<string, unknown>;
    expect(card).toMatchObject({ '@type': 'MessageCard', title: 'Rollout halted', themeColor: 'DC2626' });
    expect(JSON.stringify(card.potentialAction)).toContain(message.link);
    expect(JSON.parse(teamsBody({ subject: 's', text: 't' }))).not.toHaveProperty('potentialAction');
  });

  it('e-mail: a tagged subject and the link under the text', () => {
    expect(emailContent(message)).toEqual({
      subject: '[Outpost] Rollout halted',
      text: `${message.text}\n\nOpen in Outpost: ${message.link}\n`,
    });
  });
});
