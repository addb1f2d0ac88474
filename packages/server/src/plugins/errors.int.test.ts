import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';
import type { Database } from '../db/client';

describe('error envelope', () => {
  let app: FastifyInstance;
  let database: Database;

  beforeAll(async () => {
    database = await openDatabase({});
    const config = loadConfig({
      DATA_DIR: '/tmp/outpost-errors-test',
      SESSION_SECRET: 'x'.repeat(40),
      LOG_LEVEL: 'silent',
    });
    app = await buildApp({ config, database, logger: false });
    app.get('/api/test/boom', { config: { access: 'public' } }, () => {
      throw new Error('secret connection string postgres://admin:hunter2@db');
    });
    app.post(
      '/api/test/echo',
      { config: { access: 'public' }, schema: { body: z.object({ count: z.number().int().min(1) }) } },
      (req) => ({
        success: true,
        data: req.body,
      }),
    );
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    await database.close();
  });

  it('answers an unexpected failure with a 500 envelope that carries no internals', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/test/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, error: 'Internal server error', code: 'INTERNAL' });
    expect(res.body).not.toContain('hunter2');
  });

  it('names the failing field of a bad body', async () => {
    const res = await app.inject({ method: 'POST', url: '/api/test/echo', payload: { count: 0 } });
    expect(res.statusCode).toBe(400);
    const body = res.json<{ success: boolean; error: string; fields: unknown[] }>();
    expect(body.success).toBe(false);
    expect(body.error).toMatch(/^body\.count: /);
    expect(body.fields).toEqual([expect.objectContaining({ path: 'body.count' })]);
  });

  it('answers unknown API routes and methods with a 404 envelope', async () => {
    const res = await app.inject({ method: 'DELETE', url: '/api/nothing/here?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      success: false,
      error: 'Route DELETE /api/nothing/here not found',
      code: 'NOT_FOUND',
    });
  });

  it('sends security headers with a CSP that allows Google sign-in', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/health' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain('script-src');
    expect(csp).toContain('https://accounts.google.com/gsi/client');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('serves the OpenAPI document generated from the contract', async () => {
    const res = await app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json<{ paths: Record<string, { post?: { requestBody?: unknown } }> }>();
    expect(doc.paths['/api/customer/auth/google']?.post?.requestBody).toBeDefined();
  });
});
