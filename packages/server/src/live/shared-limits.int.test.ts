import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnrollResult } from '@outpost/contract/agent-protocol';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import {
  REDIS_URL,
  connectAgentSocket,
  upgradeStatus,
  UpgradeRefused,
  createEnrollmentToken,
  facts,
  postFrom,
  throwawayDatabase,
} from '../../test/support/live';

// SECURITY.md, docs/product/agent-protocol.md#several-instances: with REDIS_URL the sign-in, enrolment and agent upgrade limits
// are counted in Redis, so two instances enforce one limit. Requests alternate between the two
// instances; each alone would still be under every limit.

describe('rate limits shared by two instances through Redis', () => {
  let db: Awaited<ReturnType<typeof throwawayDatabase>>;
  let one: TestServer;
  let two: TestServer;
  let adminToken: string;
  const both = () => [one, two, one, two, one, two];

  beforeAll(async () => {
    db = await throwawayDatabase();
    const env = {
      REDIS_URL,
      REDIS_CHANNEL_PREFIX: `outpost-test-${crypto.randomBytes(4).toString('hex')}:`,
      SIGN_IN_PER_MINUTE: '5',
      ENROLL_FAILURES_PER_ADDRESS: '3',
      ENROLL_PER_TOKEN_PER_MINUTE: '4',
      AGENT_AUTH_FAILURES_PER_ADDRESS: '3',
      AGENT_UPGRADES_PER_SECOND: '0.01',
      AGENT_UPGRADE_BURST: '3',
    };
    one = await startTestServer({ databaseUrl: db.url, env });
    two = await startTestServer({ databaseUrl: db.url, env });
    await one.seedDemo();
    // this sign-in is the first of the five the address may make
    adminToken = (await one.devSignIn('admin@acme.example')).token;
  });
  afterAll(async () => {
    await one?.close();
    await two?.close();
    await db?.drop();
  });

  it('counts sign-ins from one address on both instances together', async () => {
    const statuses: number[] = [];
    for (const server of both()) {
      statuses.push(
        (await server.request('POST', '/api/customer/auth/dev', { body: { email: 'admin@acme.example' } }))
          .status,
      );
    }
    // one sign-in happened in the set-up: four more pass, then both instances refuse
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('limits enrolments per token across instances, so one token cannot enrol without end', async () => {
    const token = (await createEnrollmentToken(one, adminToken)).token;
    const statuses: number[] = [];
    for (const [i, server] of both().entries()) {
      const res = await postFrom(
        server.url,
        '/api/agent/enroll',
        { token, facts: facts({ hostname: `nat-pc-${i}` }) },
        '127.0.0.2',
      );
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('refuses an address spraying tokens on both instances, even with a valid token after', async () => {
    const valid = (await createEnrollmentToken(two, adminToken)).token;
    const statuses: number[] = [];
    for (const server of [one, two, one]) {
      const sprayed = `opt_${crypto.randomBytes(32).toString('base64url')}`;
      statuses.push(
        (await postFrom(server.url, '/api/agent/enroll', { token: sprayed, facts: facts() }, '127.0.0.3'))
          .status,
      );
    }
    const after = await postFrom(two.url, '/api/agent/enroll', { token: valid, facts: facts() }, '127.0.0.3');
    expect(statuses).toEqual([401, 401, 401]);
    expect(after.status).toBe(429);
    // another address with the valid token is not affected
    const elsewhere = await postFrom<{ data: EnrollResult }>(
      one.url,
      '/api/agent/enroll',
      { token: valid, facts: facts({ hostname: 'elsewhere' }) },
      '127.0.0.4',
    );
    expect(elsewhere.status).toBe(200);
  });

  it('counts failed agent authentications and the upgrade budget on both instances together', async () => {
    const token = (await createEnrollmentToken(one, adminToken)).token;
    const agents: EnrollResult[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await postFrom<{ data: EnrollResult }>(
        one.url,
        '/api/agent/enroll',
        { token, facts: facts({ hostname: `budget-pc-${i}` }) },
        '127.0.0.5',
      );
      agents.push(res.body.data);
    }
    const garbage: number[] = [];
    for (const server of [one, two, one, two]) {
      const socket = connectAgentSocket(server.url, agents[0]!.device_guid, 'wrong', {
        localAddress: '127.0.0.6',
      });
      garbage.push(await upgradeStatus(socket));
    }
    expect(garbage).toEqual([401, 401, 401, 429]);

    const real: number[] = [];
    for (const [i, server] of [one, two, one, two].entries()) {
      const creds = agents[i]!;
      real.push(await upgradeStatus(connectAgentSocket(server.url, creds.device_guid, creds.agent_secret)));
    }
    // a burst of three for both instances together, refilling at one per 100 s
    expect(real).toEqual([101, 101, 101, 503]);
    // the refused agent has a place in line on both instances: asking the other one again gives
    // it the same time (about 100 s), not a later one
    const retryAfter = async (server: TestServer) => {
      const creds = agents[3]!;
      const err: unknown = await connectAgentSocket(
        server.url,
        creds.device_guid,
        creds.agent_secret,
      ).opened.then(
        () => null,
        (e: unknown) => e,
      );
      expect(err).toBeInstanceOf(UpgradeRefused);
      return Number((err as UpgradeRefused).retryAfter);
    };
    const fromOne = await retryAfter(one);
    const fromTwo = await retryAfter(two);
    expect(fromOne).toBeGreaterThan(90);
    expect(fromOne).toBeLessThanOrEqual(100);
    expect(fromTwo).toBeLessThanOrEqual(fromOne);
    expect(fromTwo).toBeGreaterThan(90);
  });
});
