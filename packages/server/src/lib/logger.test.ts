import { describe, expect, it } from 'vitest';
import pino from 'pino';
import type { IncomingMessage } from 'node:http';
import { REDACTED, loggerOptions, redactText, redactUrl, requestIdGenerator } from './logger';

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

describe('request ids', () => {
  const withHeader = (value?: string) =>
    ({ headers: value === undefined ? {} : { 'x-request-id': value } }) as IncomingMessage;
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  it("takes a trusted proxy's plain X-Request-Id", () => {
    expect(requestIdGenerator(true)(withHeader('3f9c1b2a7d5e4c6b8a9d0e1f2a3b4c5d'))).toBe(
      '3f9c1b2a7d5e4c6b8a9d0e1f2a3b4c5d',
    );
  });

  it('makes its own id without a proxy, or for a header that is not a plain id', () => {
    expect(requestIdGenerator(false)(withHeader('chosen-by-client'))).toMatch(uuid);
    expect(requestIdGenerator(true)(withHeader())).toMatch(uuid);
    for (const odd of ['a\nb', 'x'.repeat(65), 'a b', '{"msg":"forged"}', '']) {
      expect(requestIdGenerator(true)(withHeader(odd))).toMatch(uuid);
    }
  });
});
