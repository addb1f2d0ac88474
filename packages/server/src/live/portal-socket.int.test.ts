import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { decodeJwt, SignJWT } from 'jose';
import type { SignInResult } from '@outpost/contract/auth';
import { PORTAL_CLOSE } from '@outpost/contract/live';
import { messages } from '@outpost/contract/messages';
import { startTestServer } from '../../test/harness';
import type { TestServer } from '../../test/harness';
import { addMember } from '../modules/tenants/tenants.service';
import { deploymentJobs, sites, users, userSites } from '../db/schema/index';
import {
  connectPortalSocket,
  createEnrollmentToken,
  enroll,
  facts,
  onlineAgent,
  portalAuth,
  flushAnswers,
  flushPortal,
} from '../../test/support/live';

describe('portal socket /api/ws', () => {
  let server: TestServer;
  let acme: SignInResult;
  let globex: SignInResult;
  let acmeDevice: { device_guid: string; agent_secret: string };
  /** devices no agent runs for: marker events on them show that everything before has arrived */
  let acmeMarker: string;
  let globexMarker: string;
  let hqSiteId: number;

  beforeAll(async () => {
    server = await startTestServer({
      env: { AGENT_PRESENCE_GRACE_MS: '100', PORTAL_SESSION_CHECK_MS: '200' },
    });
    await server.seedDemo();
    acme = await server.devSignIn('admin@acme.example');
    globex = await server.devSignIn('admin@globex.example');
    const [hq] = await server.database.db.select().from(sites).where(eq(sites.siteCode, 'HQ'));
    hqSiteId = hq!.id;
    const t = await createEnrollmentToken(server, acme.token, { site_id: hqSiteId });
    acmeDevice = (await enroll(server, t.token, facts({ hostname: 'acme-pc' }))).body.data;
    acmeMarker = (await enroll(server, t.token, facts({ hostname: 'acme-marker' }))).body.data.device_guid;
    const g = await createEnrollmentToken(server, globex.token);
    globexMarker = (await enroll(server, g.token, facts({ hostname: 'globex-marker' }))).body.data
      .device_guid;
  });
  afterAll(async () => server?.close());

  it('sends connection_status on connect and answers ping with pong', async () => {
    const socket = connectPortalSocket(server.url, portalAuth(acme));
    const status = await socket.waitFor('connection_status');
    expect(status.payload).toMatchObject({
      status: 'connected',
      tenantId: acme.user.tenant_id,
      userId: acme.user.id,
    });
    socket.send({ type: 'ping' });
    await socket.waitFor('pong');
    await socket.close();
  });

  it('closes the socket of a user deleted while connected, without the client sending anything', async () => {
    await addMember(server.database.db, { tenantId: acme.user.tenant_id, email: 'leaver@acme.example' });
    const leaver = await server.devSignIn('leaver@acme.example');
    const socket = connectPortalSocket(server.url, portalAuth(leaver));
    await socket.waitFor('connection_status');
    await server.database.db.delete(users).where(eq(users.id, leaver.user.id));
    expect(await socket.waitForClose()).toMatchObject({ code: PORTAL_CLOSE.invalidToken });
  });

  it('closes with a 4xxx code and reason for a bad token or a tenant/user mismatch', async () => {
    const forged = connectPortalSocket(server.url, { ...portalAuth(acme), token: 'abc.def.ghi' });
    expect(await forged.waitForClose()).toMatchObject({ code: PORTAL_CLOSE.invalidToken });
    const wrongTenant = connectPortalSocket(server.url, {
      ...portalAuth(acme),
      tenantId: globex.user.tenant_id,
    });
    expect(await wrongTenant.waitForClose()).toEqual({
      code: PORTAL_CLOSE.mismatch,
      reason: messages.wsMismatch,
    });
    const wrongUser = connectPortalSocket(server.url, { ...portalAuth(acme), userId: globex.user.id });
    expect((await wrongUser.waitForClose()).code).toBe(PORTAL_CLOSE.mismatch);
    const missing = connectPortalSocket(server.url, { tenantId: 0, userId: 0, token: '' });
    expect((await missing.waitForClose()).code).toBe(PORTAL_CLOSE.missingParameters);
  });

  it('gives tenant B nothing but an error when it subscribes to tenant A’s device', async () => {
    const spy = connectPortalSocket(server.url, portalAuth(globex));
    await spy.waitFor('connection_status');
    spy.send({ type: 'subscribe', payload: { subscriptionKey: `device:${globexMarker}` } });
    await spy.waitFor('subscribed');
    const before = spy.received.length;
    spy.send({ type: 'subscribe', payload: { subscriptionKey: `device:${acmeDevice.device_guid}` } });
    const error = await spy.waitFor('error');
    expect(error.payload).toMatchObject({
      code: 'subscription_denied',
      message: messages.wsSubscriptionDenied,
    });
    // the device comes online and changes state: the spy hears nothing of it
    const agent = await onlineAgent(server.url, acmeDevice);
    agent.send({
      type: 'activity',
      messageId: 'a1',
      events: [{ eventType: 'login', userName: 'x', sessionId: 's1', timestamp: new Date().toISOString() }],
    });
    await agent.waitFor('ack');
    const marker = await flushPortal(server.app.portalHub, spy, globex.user.tenant_id, globexMarker);
    await agent.close();
    expect(spy.received.slice(before, marker).map((m) => m.type)).toEqual(['error']);
    // unknown devices and deployments answer the same way, so ids cannot be probed
    const beforeProbes = spy.received.length;
    spy.send({
      type: 'subscribe',
      payload: { subscriptionKey: 'device:00000000-0000-4000-8000-000000000000' },
    });
    spy.send({ type: 'subscribe', payload: { subscriptionKey: 'deployment:1' } });
    spy.send({ type: 'subscribe', payload: { subscriptionKey: 'nonsense' } });
    spy.send('{not json');
    const pong = await flushAnswers(spy);
    const codes = spy.received
      .slice(beforeProbes, pong)
      .map((m) => (m.type === 'error' ? m.payload.code : m.type));
    expect(codes).toEqual([
      'subscription_denied',
      'subscription_denied',
      'invalid_subscription_key',
      'invalid_message',
    ]);
    await spy.close();
  });

  it('honours site scope: a user limited to other sites cannot subscribe to the device', async () => {
    const [tech] = await server.database.db.select().from(users).where(eq(users.email, 'tech@acme.example'));
    const [london] = await server.database.db.select().from(sites).where(eq(sites.siteCode, 'LON1'));
    await server.database.db.update(users).set({ siteAccessType: 'specific' }).where(eq(users.id, tech!.id));
    await server.database.db.insert(userSites).values({ userId: tech!.id, siteId: london!.id });
    const techSession = await server.devSignIn('tech@acme.example');
    const socket = connectPortalSocket(server.url, portalAuth(techSession));
    await socket.waitFor('connection_status');
    socket.send({ type: 'subscribe', payload: { subscriptionKey: `device:${acmeDevice.device_guid}` } });
    expect((await socket.waitFor('error')).payload).toMatchObject({
      code: 'subscription_denied',
    });
    // given the HQ site, the same user may subscribe
    await server.database.db.insert(userSites).values({ userId: tech!.id, siteId: hqSiteId });
    const again = connectPortalSocket(server.url, portalAuth(techSession));
    await again.waitFor('connection_status');
    again.send({
      type: 'subscribe',
      payload: { subscriptionKey: `device:${acmeDevice.device_guid.toUpperCase()}` },
    });
    await again.waitFor('subscribed');
    await Promise.all([socket.close(), again.close()]);
  });

  it('stops delivering after unsubscribe', async () => {
    const socket = connectPortalSocket(server.url, portalAuth(acme));
    await socket.waitFor('connection_status');
    const key = `device:${acmeDevice.device_guid}`;
    socket.send({ type: 'subscribe', payload: { subscriptionKey: `device:${acmeMarker}` } });
    await socket.waitFor('subscribed');
    socket.send({ type: 'subscribe', payload: { subscriptionKey: key } });
    await socket.waitFor('subscribed', (m) => m.payload.subscriptionKey === key);
    socket.send({ type: 'unsubscribe', payload: { subscriptionKey: key } });
    await socket.waitFor('unsubscribed');
    const from = socket.received.length;
    const agent = await onlineAgent(server.url, acmeDevice);
    const marker = await flushPortal(server.app.portalHub, socket, acme.user.tenant_id, acmeMarker);
    await agent.close();
    expect(socket.received.slice(from, marker).filter((m) => m.type === 'device_update')).toEqual([]);
    await socket.close();
  });

  it('lets a module publish typed events through the hub to subscribers only', async () => {
    // a finished job of acme's with no devices: the deployments module lets acme follow it
    const [job] = await server.database.db
      .insert(deploymentJobs)
      .values({
        tenantId: acme.user.tenant_id,
        packageName: 'Hub events',
        name: 'Hub events',
        steps: [],
        status: 'completed',
        dispatchedAt: new Date(),
      })
      .returning();
    const id = job!.id;
    const socket = connectPortalSocket(server.url, portalAuth(acme));
    await socket.waitFor('connection_status');
    socket.send({ type: 'subscribe', payload: { subscriptionKey: `deployment:${id}` } });
    await socket.waitFor('subscribed');
    // the job as it is now follows the subscription
    await socket.waitFor('deployment_update');
    const from = socket.ofType('deployment_update').length;
    await server.app.portalHub.send(acme.user.tenant_id, `deployment:${id}`, 'deployment_update', {
      deploymentId: id,
      status: 'completed',
    });
    await server.app.portalHub.send(acme.user.tenant_id, `deployment:${id + 1}`, 'deployment_update', {
      deploymentId: id + 1,
      status: 'failed',
    });
    // a second event on the subscribed key marks the end: the one in between was not for us
    await server.app.portalHub.send(acme.user.tenant_id, `deployment:${id}`, 'deployment_update', {
      deploymentId: id,
      status: 'completed',
    });
    await socket.waitFor('deployment_update', () => socket.ofType('deployment_update').length === from + 2);
    expect(
      socket
        .ofType('deployment_update')
        .slice(from)
        .map((m) => m.payload.deploymentId),
    ).toEqual([id, id]);
    await socket.close();
  });
});

describe('portal socket /api/ws: token expiry', () => {
  let server: TestServer;

  beforeAll(async () => {
    // the periodic check stays at its 30 s default: only the expiry timer can close the socket here
    server = await startTestServer();
    await server.seedDemo();
  });
  afterAll(async () => server?.close());

  it('closes with 4401 when the token expires, without the client sending anything', async () => {
    const admin = await server.devSignIn('admin@acme.example');
    // the same live session, in a token that expires in two seconds
    const { sid, idn } = decodeJwt(admin.token);
    const shortLived = await new SignJWT({ tid: admin.user.tenant_id, role: admin.user.role, sid, idn })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(admin.user.id))
      .setIssuer('outpost')
      .setIssuedAt()
      .setExpirationTime('2s')
      .sign(server.config.sessionSecret);
    const socket = connectPortalSocket(server.url, { ...portalAuth(admin), token: shortLived });
    await socket.waitFor('connection_status');
    expect(await socket.waitForClose(6000)).toMatchObject({ code: PORTAL_CLOSE.invalidToken });
  });
});
