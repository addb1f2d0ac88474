import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { REDACTED, loggerOptions, redactText, redactUrl } from './logger';

function capture() {
  const lines: string[] = [];
  const options = loggerOptions('trace');
  const logger = pino(
    { ...options, serializers: undefined },
    { write: (line: string) => void lines.push(line) },
  );
  return { logger, text: () => lines.join('') };
}

describe('log redaction', () => {
  it('replaces the values of credential query parameters and keeps the rest', () => {
    expect(redactUrl('/api/ws?tenantId=1&userId=2&token=abc.def.ghi')).toBe(
      `/api/ws?tenantId=1&userId=2&token=${REDACTED}`,
    );
    expect(redactUrl('/x?access_token=a&client_secret=b&Password=c&page=2')).toBe(
      `/x?access_token=${REDACTED}&client_secret=${REDACTED}&Password=${REDACTED}&page=2`,
    );
    expect(redactUrl('/x?%74oken=a')).toBe(`/x?%74oken=${REDACTED}`);
    expect(redactUrl('/api/devices')).toBe('/api/devices');
  });

  it('replaces credentials quoted in free text', () => {
    expect(redactText('GET /api/ws?userId=2&token=abc.def failed')).toBe(
      `GET /api/ws?userId=2&token=${REDACTED} failed`,
    );
    expect(redactText('sent Authorization: Bearer eyJhbGciOi.x.y')).toBe(
      `sent Authorization: Bearer ${REDACTED}`,
    );
  });

  it('censors credential fields of logged objects, headers included', () => {
    const { logger, text } = capture();
    logger.info(
      {
        headers: { authorization: 'Bearer s3cr3t-1' },
        body: { token: 's3cr3t-2', nested: { password: 's3cr3t-3' } },
        agent_secret_holder: { secret: 's3cr3t-4' },
      },
      'request with token=s3cr3t-5',
    );
    const out = text();
    for (const secret of ['s3cr3t-1', 's3cr3t-2', 's3cr3t-3', 's3cr3t-4', 's3cr3t-5']) {
      expect(out).not.toContain(secret);
    }
    expect(out).toContain(REDACTED);
  });
});
