import crypto from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { SignInResult } from '@outpost/contract/auth';
import { buildApp } from '../src/app';
import type { AppOptions } from '../src/app';
import { loadConfig } from '../src/config';
import type { Config } from '../src/config';
import { openDatabase } from '../src/db/client';
import { seedDemo } from '../src/modules/demo/demo.seed';
import { createLocalBlobStore } from '../src/modules/files/blob-store';
import type { Database } from '../src/db/client';
import { pgliteTemplate } from './pglite-template';

/**
 * Integration tests run the real server over HTTP on an ephemeral port. The database is PGlite in
 * memory by default; with TEST_DATABASE_URL (postgres://…/anydb) each server gets a throwaway
 * PostgreSQL database created for it and dropped on close.
 */
export type TestServer = {
  app: FastifyInstance;
  url: string;
  database: Database;
  config: Config;
  close(): Promise<void>;
  /** fetch against the server; JSON body in, parsed JSON out. */
  request: <T = unknown>(
    method: string,
    path: string,
    opts?: { token?: string; body?: unknown; headers?: Record<string, string> },
  ) => Promise<{ status: number; body: T; headers: Headers }>;
  devSignIn(email: string): Promise<SignInResult>;
  /** The embedded demo (tenants, sites, packages) with this server's blob store. */
  seedDemo(): ReturnType<typeof seedDemo>;
};

export async function createThrowawayDatabase(
  baseUrl: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `outpost_t_${Date.now()}_${crypto.randomBytes(3).toString('hex')}`;
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: baseUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

export const isPostgresRun = () => Boolean(process.env.TEST_DATABASE_URL);

export async function startTestServer(
  overrides: {
    env?: Record<string, string>;
    googleVerifier?: AppOptions['googleVerifier'];
    databaseUrl?: string;
    /** a recording ScriptRunner (modules/scripts) */
    scriptRunner?: AppOptions['scriptRunner'];
    /** the server's log (at LOG_LEVEL) goes here instead of nowhere */
    logStream?: { write(line: string): void };
  } = {},
): Promise<TestServer> {
  const baseUrl = process.env.TEST_DATABASE_URL;
  const throwaway = overrides.databaseUrl ? null : baseUrl ? await createThrowawayDatabase(baseUrl) : null;
  const databaseUrl = overrides.databaseUrl ?? throwaway?.url;
  const config = loadConfig({
    DATA_DIR: `/tmp/outpost-test-${process.pid}`,
    SESSION_SECRET: 'integration-tests-session-secret-0123456789',
    LOG_LEVEL: 'silent',
    PORT: '0',
    // The tests sign in with dev sign-in from loopback, like the demo (SECURITY.md R2-7).
    OUTPOST_ALLOW_DEV_LOGIN: '1',
    ...overrides.env,
  });
  const database = await openDatabase(
    databaseUrl ? { databaseUrl } : { pgliteTemplate: await pgliteTemplate() },
  );
  const app = await buildApp({
    config,
    database,
    logger: overrides.logStream ? undefined : false,
    logStream: overrides.logStream,
    googleVerifier: overrides.googleVerifier,
    ...(overrides.scriptRunner && { scriptRunner: overrides.scriptRunner }),
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const url = `http://127.0.0.1:${port}`;

  const request: TestServer['request'] = async (method, path, opts = {}) => {
    const headers: Record<string, string> = { ...opts.headers };
    if (opts.token) {
      headers.authorization = `Bearer ${opts.token}`;
    }
    let body: string | undefined;
    if (opts.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
    }
    const res = await fetch(url + path, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON: keep the text
    }
    return { status: res.status, body: parsed as never, headers: res.headers };
  };

  return {
    app,
    url,
    database,
    config,
    request,
    async devSignIn(email) {
      const res = await request<{ success: boolean; data: SignInResult; error?: string }>(
        'POST',
        '/api/customer/auth/dev',
        {
          body: { email },
        },
      );
      if (res.status !== 200) {
        throw new Error(`dev sign-in for ${email} failed: ${res.status} ${JSON.stringify(res.body)}`);
      }
      return res.body.data;
    },
    seedDemo: () => seedDemo(database.db, { blobStore: createLocalBlobStore(config.blobDir) }),
    async close() {
      // Node 20 does not count a keep-alive connection whose last answer was a streamed file as
      // idle, so a graceful close would wait out the keep-alive timeout (72 s); the server's own
      // shutdown is bounded at 10 s (main.ts), the tests' at 2 s, then open connections are cut
      const cut = setTimeout(() => app.server.closeAllConnections(), 2_000).unref();
      await app.close();
      clearTimeout(cut);
      await database.close();
      await throwaway?.drop();
    },
  };
}
