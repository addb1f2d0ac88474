import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer } from '@outpost/server/test-support';
import type { TestServer } from '@outpost/server/test-support';

// The client is generated from packages/client/openapi.json (scripts/generate.ts, without a
// server); a production server must serve that same document at /api/docs/json, publicly.

describe('the OpenAPI document the client is generated from', () => {
  let server: TestServer;

  beforeAll(async () => {
    // production settings: no demo, no dev sign-in (the generator's)
    server = await startTestServer({ env: { OUTPOST_DEMO: '0', OUTPOST_ALLOW_DEV_LOGIN: '0' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is what a production server serves at /api/docs/json, without a token', async () => {
    const committed: unknown = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../openapi.json'), 'utf8'),
    );
    const served = await server.request('GET', '/api/docs/json');
    expect(served.status).toBe(200);
    expect(served.body).toEqual(committed);
  });
});
