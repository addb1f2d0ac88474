import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { helmetHeaders, securityHeadersPlugin } from './security-headers';

describe('security headers', () => {
  const options = {
    contentSecurityPolicy: {
      directives: { 'script-src': ["'self'", 'https://accounts.google.com/gsi/client'] },
    },
  };

  it('are helmet’s headers for the options', () => {
    const { set, removed } = helmetHeaders(options);
    const names = set.map((h) => h.name.toLowerCase());
    expect(names).toEqual(
      expect.arrayContaining([
        'content-security-policy',
        'x-content-type-options',
        'strict-transport-security',
      ]),
    );
    expect(set.find((h) => h.name === 'Content-Security-Policy')?.value).toContain(
      "script-src 'self' https://accounts.google.com/gsi/client",
    );
    expect(removed).toEqual(['X-Powered-By']);
  });

  it('go on every response: a route’s, an error and a 404; a route may still set its own', async () => {
    const app = Fastify();
    await app.register(securityHeadersPlugin, options);
    app.get('/ok', () => ({ ok: true }));
    app.get('/own', (_request, reply) => reply.header('x-frame-options', 'DENY').send('own'));
    app.get('/boom', () => {
      throw new Error('boom');
    });
    const expected = helmetHeaders(options).set.filter((h) => h.name !== 'Strict-Transport-Security');
    for (const url of ['/ok', '/boom', '/missing']) {
      const res = await app.inject({ method: 'GET', url });
      for (const header of expected) {
        expect(res.headers[header.name.toLowerCase()], `${url} ${header.name}`).toBe(header.value);
      }
      // plain HTTP: no HSTS (plugins/security-headers.ts)
      expect(res.headers['strict-transport-security']).toBeUndefined();
    }
    expect((await app.inject({ method: 'GET', url: '/own' })).headers['x-frame-options']).toBe('DENY');
    await app.close();
  });
});
